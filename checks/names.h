// The checker's own names for the values of the tool's reports and of the port, as SPEC and the
// report format spell them. The checks compare the tool's text claims with these (a delivery named
// in a report, an error kind) and print them in explanations; they never call the tool's printers,
// so that a wrong name in model/ is a wrong claim here, not a shared mistake.
#pragma once

#include <string_view>

#include "model/boundary.h"
#include "model/desktop.h"
#include "model/evidence.h"
#include "model/observation.h"
#include "model/tool.h"
#include "model/verdict.h"

namespace deskcheck::props {

std::string_view name_of(Verdict v);
std::string_view name_of(ActionKind k);
std::string_view name_of(HotkeyIntent i);
std::string_view name_of(ClickState s);
std::string_view name_of(Promise p);
std::string_view name_of(ErrorKind k);
std::string_view name_of(RequestKind k);
std::string_view name_of(WriteOutcome o);
std::string_view name_of(WriteShape s);
std::string_view name_of(ObservationOutcome o);
std::string_view name_of(DeliveryMethod m);
std::string_view name_of(Framework f);

}  // namespace deskcheck::props
