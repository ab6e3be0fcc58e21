#!/usr/bin/env python3
"""Writes the crafted bad inputs of tests/data/hostile/ (issue 15): every file is a JSON object
naming "format" -- a scenario document as far as `deskcheck convert` can tell -- and every one must
be refused with one line and exit 2 by replay, shrink and convert, quickly and in little memory
(tests/cli/hostile_inputs.sh). Rerun to regenerate; the files are committed, so the tests need no
Python. Special inputs that cannot be files of a repository (a folder, /dev/zero, a FIFO, a missing
file, over 1 MiB, a compact document whose canonical form is over the limit) are made by the test.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
FMT = "deskcheck-scenario/1"

def rect(l=0, t=0, r=100, b=100):
    return {"left": l, "top": t, "right": r, "bottom": b}

def base():
    return {
        "format": FMT, "seed": 1,
        "monitors": [{"id": 1, "bounds": rect(0, 0, 1920, 1080), "primary": True}],
        "windows": [{"id": 1, "pid": 100, "bounds": rect(100, 100, 900, 700),
                     "controls": [{"id": 1, "kind": "edit", "role": "Edit", "value": "hello",
                                   "bounds": rect(110, 140, 890, 600)}]}],
        "apps": [{"pid": 100, "name": "notes"}],
        "foreground": 1,
        "steps": [{"kind": "type", "window": 1, "control": 1, "text": "x"}],
    }

def header(**kw):
    h = {"property": "verdict_sound", "rules": "current", "seed": 1, "summary": "s", "outcome": "violated"}
    h.update(kw)
    return h

files = {}

def doc(name, d):
    files[name] = json.dumps(d, ensure_ascii=False).encode()

def raw(name, b):
    files[name] = b if isinstance(b, bytes) else b.encode()

good = json.dumps(base()).encode()
# --- JSON syntax ---
for cut in (1, 10, 40, len(good) // 2, len(good) - 1):
    raw(f"syntax_truncated_at_{cut}.json", good[:cut] + b' "format"')  # still names "format"
raw("syntax_trailing_comma.json", good[:-1] + b',}')
raw("syntax_single_quotes.json", good.replace(b'"format"', b"'format'", 1) + b' "format"')
raw("syntax_comment.json", b'{/* c */ "format": "deskcheck-scenario/1", "seed": 1}')
raw("syntax_nan.json", good.replace(b'"seed": 1', b'"seed": NaN'))
raw("syntax_infinity.json", good.replace(b'"seed": 1', b'"seed": Infinity'))
raw("syntax_leading_zero.json", good.replace(b'"seed": 1', b'"seed": 01'))
raw("syntax_hex_number.json", good.replace(b'"seed": 1', b'"seed": 0x10'))
raw("syntax_control_char_in_string.json", good.replace(b'"hello"', b'"hel\x01lo"'))
raw("syntax_invalid_escape.json", good.replace(b'"hello"', b'"hel\\xlo"'))
raw("syntax_lone_surrogate.json", good.replace(b'"hello"', b'"\\ud800"'))
raw("syntax_invalid_utf8.json", good.replace(b'"hello"', b'"hel\xff\xfelo"'))
raw("syntax_overlong_utf8.json", good.replace(b'"hello"', b'"\xc0\xaf"'))
raw("syntax_nul_byte.json", good.replace(b'"hello"', b'"hel\x00lo"'))
raw("syntax_two_documents.json", good + good)
raw("syntax_garbage_after.json", good + b' \x00\x01garbage')
raw("syntax_unterminated_string.json", b'{"format": "deskcheck-scenario/1", "seed": "' + b'a' * 5000)
raw("syntax_binary_noise.json", b'{"format"' + bytes(range(256)) * 8)
# --- nesting ---
raw("nesting_65_levels.json", b'{"format": "x", "a": ' + b'[' * 65 + b']' * 65 + b'}')
raw("nesting_20000_levels.json", b'{"format": "x", "a": ' + b'[' * 20000 + b']' * 20000 + b'}')
raw("nesting_objects_deep.json", b'{"format": "x", "a": ' + b'{"a":' * 70 + b'1' + b'}' * 70 + b'}')
# --- duplicate keys ---
raw("duplicate_format.json", good.replace(b'{"format"', b'{"format": "x", "format"', 1))
raw("duplicate_key_in_step.json", good.replace(b'"text": "x"', b'"text": "x", "text": "y"'))
# --- wrong types and numbers ---
def with_(path_setter, name):
    d = base(); path_setter(d); doc(name, d)
with_(lambda d: d.update(format=1), "type_format_number.json")
with_(lambda d: d.update(format="deskcheck-scenario/2"), "format_other_version.json")
with_(lambda d: d.update(seed="1"), "type_seed_string.json")
with_(lambda d: d.update(seed=-1), "type_seed_negative.json")
with_(lambda d: d.update(seed=1.5), "type_seed_float.json")
with_(lambda d: d.update(seed=18446744073709551616), "type_seed_2_to_the_64.json")
raw("type_seed_exponent.json", good.replace(b'"seed": 1', b'"seed": 1e3'))
raw("type_seed_1e400.json", good.replace(b'"seed": 1', b'"seed": 1e400'))
raw("type_seed_huge_integer.json", good.replace(b'"seed": 1', b'"seed": ' + b'9' * 5000))
with_(lambda d: d.update(monitors={}), "type_monitors_object.json")
with_(lambda d: d.update(windows=None), "type_windows_null.json")
with_(lambda d: d["steps"][0].update(control="1"), "type_step_control_string.json")
with_(lambda d: d.update(batch="yes"), "type_batch_string.json")
# --- limits ---
def many_windows(d):
    d["windows"] = [{"id": i, "pid": 100, "bounds": rect(0, 0, 10, 10)} for i in range(1, 18)]
with_(many_windows, "limit_17_windows.json")
with_(lambda d: d["windows"][0].update(controls=[{"id": i, "kind": "button", "role": "Button", "bounds": rect(110, 140, 120, 150)} for i in range(1, 66)]), "limit_65_controls.json")
with_(lambda d: d.update(steps=[{"kind": "observe", "window": 1, "control": 1}] * 33), "limit_33_steps.json")
with_(lambda d: d.update(monitors=[{"id": i, "bounds": rect(0, 0, 10, 10), "primary": i == 1} for i in range(1, 6)]), "limit_5_monitors.json")
with_(lambda d: d["windows"][0].update(title="t" * 4097), "limit_string_4097_bytes.json")
with_(lambda d: d.update(events=[{"at_ms": 1, "kind": "user_types", "text": "a"}] * 65), "limit_65_user_events.json")
with_(lambda d: d.update(**{"k" * 100_000: 1}), "limit_100kb_unknown_key.json")
with_(lambda d: d.update(**{"esc\x1b[31mred\x00nul": 1}), "key_with_control_bytes.json")
with_(lambda d: d["windows"][0].update(**{"bonds": rect()}), "unknown_window_field.json")
# --- semantics ---
with_(lambda d: d["windows"].append(dict(d["windows"][0])), "semantic_duplicate_window_id.json")
with_(lambda d: d["windows"][0].update(owner=1), "semantic_owner_self.json")
with_(lambda d: d["windows"][0]["controls"][0].update(parent=1), "semantic_parent_self.json")
with_(lambda d: d["windows"][0]["controls"][0].update(bounds=rect(0, 0, 2000, 2000)), "semantic_control_outside_window.json")
with_(lambda d: d["windows"][0]["controls"][0].update(selection={"start": 9, "length": 9}), "semantic_selection_outside_value.json")
with_(lambda d: d["steps"][0].update(depends_on=0), "semantic_depends_on_itself.json")
with_(lambda d: d.update(foreground=9), "semantic_foreground_missing.json")
with_(lambda d: d["steps"][0].update(window=9), "semantic_step_unknown_window.json")
with_(lambda d: d["monitors"][0].update(primary=False), "semantic_no_primary_monitor.json")
with_(lambda d: d["monitors"][0].update(dpi=95), "semantic_dpi_95.json")
with_(lambda d: d["windows"][0]["bounds"].update(right=40000), "semantic_coordinate_40000.json")
with_(lambda d: d["apps"][0].update(latency_ms_min=9, latency_ms_max=1), "semantic_latency_min_over_max.json")
with_(lambda d: d.update(faults={"stale_read_permille": 1001}), "semantic_permille_1001.json")
with_(lambda d: d.update(apps=[]), "semantic_window_without_app.json")
with_(lambda d: d.update(hidden=[1, 1]), "semantic_hidden_twice.json")
# --- counterexample header ---
with_(lambda d: d.update(counterexample=header(outcome="violatd")), "header_outcome_misspelt.json")
with_(lambda d: d.update(counterexample=header(property="no_such_property")), "header_unknown_property.json")
with_(lambda d: d.update(counterexample=header(mutation="none")), "header_mutation_none.json")
with_(lambda d: d.update(counterexample=header(mutation="no_give_back")), "header_unknown_mutation.json")
with_(lambda d: d.update(counterexample=header(rules="future")), "header_unknown_rules.json")
with_(lambda d: d.update(counterexample=header(step=32)), "header_step_32.json")
with_(lambda d: d.update(counterexample="violated"), "header_not_an_object.json")
def no_seed(d):
    h = header(); del h["seed"]; d.update(counterexample=h)
with_(no_seed, "header_missing_seed.json")
with_(lambda d: d.update(counterexample=header(property="\x1b]0;title\x07" + "p" * 5000)), "header_property_escape_sequence.json")
# --- the shape of the document ---
raw("document_only_format.json", b'{"format": "deskcheck-scenario/1"}')
raw("document_array.json", b'[{"format": "deskcheck-scenario/1"}]')
raw("document_string.json", b'"{\\"format\\": 1}"')
raw("document_whitespace_then_object.json", b'\n\t  {"format": null}')

for old in os.listdir(HERE):
    if old.endswith(".json"):
        os.remove(os.path.join(HERE, old))
for name, content in sorted(files.items()):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(content)
print(len(files), "files")
