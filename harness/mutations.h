// The negative proofs' deliberately wrong tools (STYLE 13), one per Mutation (sim/mutation_names.h):
// each overrides one of the tool's extension points (model/tool_hooks.h) with a bug a property must
// catch. They live here, outside the model: the production tool has no branch for any of them.
// Used by `deskcheck run/replay/shrink/nightly --mutation NAME`, the negative and regression tests.
#pragma once

#include "model/tool.h"
#include "sim/mutation_names.h"

namespace deskcheck::props {

// The tool configuration with mutation `m` put in (None: `config` unchanged). The hooks it installs
// are stateless and live for the whole program.
ToolConfig with_mutation(ToolConfig config, Mutation m);

}  // namespace deskcheck::props
