"""Mutation points of a C++ file, found with libclang, and the file rewritten as mutant schemata.

One pass over a translation unit finds every mutation point of the named operators; the file is
then written back with each point guarded by a runtime switch,

    (::dc_mutant(417) ? ((a) <= (b)) : ::dc_mutant(418) ? ((a) >= (b)) : ((a) < (b)))

so that every mutant of the tree builds once and each runs by setting DESKCHECK_MUTANT. Edits nest
(a condition inside a removed statement inside a swapped pair); an edit that would partly overlap
another is not made, and counted. Nothing here runs a mutant: see runner.py.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import glob
import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import clang.cindex as ci

K = ci.CursorKind


def load_libclang() -> None:
    if ci.Config.loaded:
        return
    for pattern in ("/usr/lib/llvm-14/lib/libclang-14.so*", "/usr/lib/llvm-*/lib/libclang.so*",
                    "/usr/lib/x86_64-linux-gnu/libclang-*.so*"):
        found = sorted(glob.glob(pattern))
        if found:
            ci.Config.set_library_file(found[0])
            return


# The operators, each named (docs/mutate-model.md's table is this one).
OPERATORS = {
    "relational": "a comparison replaced by its opposite (< by >=, == by !=, ...)",
    "boundary": "a comparison moved by one (< by <=, > by >=, and back); +1 / -1 on integer + and - arithmetic",
    "logical": "&& and || swapped",
    "negated_condition": "an if condition or a ! negated",
    "swapped_branches": "the branches of an if/else or a ?: swapped",
    "removed_statement": "a call, assignment or increment statement removed",
    "swapped_statements": "two adjacent statements in the other order, when one writes what the other mentions",
    "return_value": "a return of another enumerator, std::nullopt, {} / 0, or the negated bool",
    "constant": "an integer literal +1 / -1 (0 -> 1), a bool literal flipped",
    "early_exit": "return at the start of a void function's block, continue at the start of a loop's block",
}

SWITCH = "::dc_mutant"


@dataclasses.dataclass
class Mutant:
    id: int
    file: str              # relative to the source root
    function: str
    operator: str
    line: int
    column: int
    original: str          # the original text of the edit's range
    mutated: str           # the same range with this mutant applied (no switches)
    key: str = ""          # stable across runs: file::function::operator::original=>mutated::n
    compiled: bool = True


@dataclasses.dataclass
class Edit:
    start: int
    end: int
    order: int
    # render(inner, sub, alternatives) -> text; `inner()` is the edit's own range rendered with its
    # children, `sub(a, b)` a sub-range rendered with the children inside it.
    render: Callable[["Renderer", "Edit"], str]
    # (mutant, plain(sub) -> mutated text of the range without switches)
    mutants: List[Tuple[Mutant, Callable[[Callable[[int, int], str]], str]]] = dataclasses.field(default_factory=list)
    children: List["Edit"] = dataclasses.field(default_factory=list)
    # Whether render() writes the edit's whole range through inner(): only then can an edit of the
    # very same range sit inside it (a condition's negation around a comparison of the same text).
    # An edit that rewrites its parts (a comparison's operator, a ternary's branches) cannot hold one.
    holds_same_range: bool = False

    def contains(self, other: "Edit") -> bool:
        if other is self:
            return False
        if other.start == other.end:  # an insertion: strictly inside
            return self.start < other.start < self.end
        return self.start <= other.start and other.end <= self.end


def _tokens(cursor) -> List[ci.Token]:
    return list(cursor.get_tokens())


def _in_file(cursor, path: str) -> bool:
    loc = cursor.extent.start
    end = cursor.extent.end
    return loc.file is not None and end.file is not None and loc.file.name == path and end.file.name == path


def _qualified(decl) -> Optional[str]:
    parts = []
    c = decl
    while c is not None and c.kind != K.TRANSLATION_UNIT:
        if c.kind in (K.NAMESPACE, K.CLASS_DECL, K.STRUCT_DECL, K.ENUM_DECL, K.CLASS_TEMPLATE):
            if not c.spelling:
                if c.kind == K.NAMESPACE:  # anonymous namespace: reachable unqualified from this file
                    c = c.semantic_parent
                    continue
                return None
            parts.append(c.spelling)
        c = c.semantic_parent
    return "::" + "::".join(reversed(parts)) if parts else None


INTEGER_KINDS = {ci.TypeKind.INT, ci.TypeKind.UINT, ci.TypeKind.LONG, ci.TypeKind.ULONG, ci.TypeKind.LONGLONG,
                 ci.TypeKind.ULONGLONG, ci.TypeKind.SHORT, ci.TypeKind.USHORT}
LOOPS = (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.CXX_FOR_RANGE_STMT)
FUNCTIONS = (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE, K.CONVERSION_FUNCTION)


@dataclasses.dataclass
class Ctx:
    function: str = ""
    return_type: Optional[ci.Type] = None   # None: unknown (a lambda), skip return mutants
    in_loop: bool = False
    skip: bool = False                      # a function on the skip list


class Finder:
    def __init__(self, path: str, rel: str, text: bytes, skip_functions: Sequence[str], skip_calls: Sequence[str],
                 operators: Optional[Sequence[str]] = None):
        self.path = path
        self.rel = rel
        self.text = text
        self.skip_functions = list(skip_functions)
        self.skip_calls = set(skip_calls)
        self.operators = set(operators) if operators else set(OPERATORS)
        self.edits: List[Edit] = []
        self.overlaps = 0
        self.skipped_functions: List[str] = []
        self._order = 0
        self._seen = set()
        self.macros: List[Tuple[int, int]] = []

    # ---- helpers ---------------------------------------------------------------------------------

    def src(self, a: int, b: int) -> str:
        return self.text[a:b].decode("utf-8", "replace")

    def ext(self, c) -> Tuple[int, int]:
        return c.extent.start.offset, c.extent.end.offset

    def _add(self, start: int, end: int, render, cursor, ctx: Ctx,
             alts: List[Tuple[str, Callable[[Callable[[int, int], str]], str]]], holds_same_range: bool = False) -> None:
        alts = [(op, fn) for op, fn in alts if op in self.operators]
        if not alts:
            return
        e = Edit(start, end, self._order, render, holds_same_range=holds_same_range)
        ident = (start, end, tuple(op for op, _ in alts), render.__name__)
        if ident in self._seen:
            return
        self._seen.add(ident)
        for other in self.edits:
            overlap = other.start < e.end and e.start < other.end
            if overlap and not (other.contains(e) or e.contains(other) or (other.start == e.start and other.end == e.end)):
                self.overlaps += len(alts)
                return
        self._order += 1
        line = cursor.extent.start.line
        col = cursor.extent.start.column
        for op, fn in alts:
            m = Mutant(0, self.rel, ctx.function, op, line, col, self.src(start, end), "")
            e.mutants.append((m, fn))
        self.edits.append(e)

    # ---- the walk --------------------------------------------------------------------------------

    def run(self, tu) -> None:
        # Macro invocations (assert, UINT32_MAX, ...): nothing inside one is mutated.
        self.macros = sorted((c.extent.start.offset, c.extent.end.offset) for c in tu.cursor.get_children()
                             if c.kind == K.MACRO_INSTANTIATION and c.extent.start.file is not None
                             and c.extent.start.file.name == self.path)
        for c in tu.cursor.get_children():
            if _in_file(c, self.path) and c.kind != K.MACRO_INSTANTIATION:
                self.visit(c, Ctx())

    def in_macro(self, c) -> bool:
        a, b = c.extent.start.offset, c.extent.end.offset
        return any(m0 < b and a < m1 for m0, m1 in self.macros) if self.macros else False

    def visit(self, c, ctx: Ctx) -> None:
        k = c.kind
        if k not in FUNCTIONS and k not in (K.NAMESPACE, K.CLASS_DECL, K.STRUCT_DECL) and self.in_macro(c):
            return
        if k in FUNCTIONS:
            if not c.is_definition():
                return
            name = c.spelling
            skip = any(fnmatch.fnmatch(name, p) for p in self.skip_functions)
            if skip:
                self.skipped_functions.append(f"{self.rel}:{c.extent.start.line} {name}")
            rt = c.result_type if k not in (K.CONSTRUCTOR, K.DESTRUCTOR) else None
            ctx = Ctx(function=name, return_type=rt, in_loop=False, skip=skip)
            body = [ch for ch in c.get_children() if ch.kind == K.COMPOUND_STMT]
            for ch in c.get_children():
                if ch.kind == K.COMPOUND_STMT:
                    continue
                if ch.kind in (K.PARM_DECL, K.TYPE_REF, K.TEMPLATE_REF, K.NAMESPACE_REF, K.TEMPLATE_TYPE_PARAMETER):
                    continue
                self.visit(ch, ctx)  # constructor initialisers
            for b in body:
                if not ctx.skip and rt is not None and rt.kind == ci.TypeKind.VOID:
                    self.early_exit(b, ctx, "return")
                self.visit_compound(b, ctx)
            return
        if k == K.LAMBDA_EXPR:
            lctx = Ctx(function=ctx.function + "::lambda", return_type=None, in_loop=False, skip=ctx.skip)
            for ch in c.get_children():
                if ch.kind == K.COMPOUND_STMT:
                    self.visit_compound(ch, lctx)
                elif ch.kind.is_expression():
                    self.visit(ch, ctx)  # captures' initialisers
            return
        if k in (K.NAMESPACE, K.LINKAGE_SPEC, K.CLASS_DECL, K.STRUCT_DECL, K.UNEXPOSED_DECL):
            for ch in c.get_children():
                self.visit(ch, ctx)
            return
        if k in (K.ENUM_DECL, K.STATIC_ASSERT, K.FIELD_DECL, K.TYPE_ALIAS_DECL, K.TYPEDEF_DECL, K.USING_DIRECTIVE,
                 K.USING_DECLARATION, K.TYPE_REF, K.TEMPLATE_REF, K.NAMESPACE_REF, K.PARM_DECL):
            return
        if ctx.skip or not ctx.function:
            return  # outside any function (file-scope tables): no mutants
        if k == K.COMPOUND_STMT:
            self.visit_compound(c, ctx)
            return
        if k == K.VAR_DECL or k == K.DECL_STMT:
            self.visit_decl(c, ctx)
            return
        if k == K.IF_STMT:
            self.visit_if(c, ctx)
            return
        if k in LOOPS:
            lctx = dataclasses.replace(ctx, in_loop=True)
            children = list(c.get_children())
            for n, ch in enumerate(children):
                body = n == len(children) - 1 and k != K.DO_STMT or n == 0 and k == K.DO_STMT
                if ch.kind == K.COMPOUND_STMT:
                    self.early_exit(ch, lctx, "continue")
                    self.visit_compound(ch, lctx)
                elif body and ch.kind.is_expression():
                    self.statement(ch, lctx)  # a body without braces
                else:
                    self.visit(ch, lctx if ch.kind.is_statement() else ctx)
            return
        if k == K.RETURN_STMT:
            self.visit_return(c, ctx)
            return
        if k == K.SWITCH_STMT:
            for ch in c.get_children():
                self.visit(ch, ctx)
            return
        if k == K.CASE_STMT:
            children = list(c.get_children())
            for ch in children[1:]:  # not the label: a constant expression
                self.visit(ch, ctx)
            return
        if k.is_expression():
            self.visit_expr(c, ctx)
            return
        for ch in c.get_children():
            self.visit(ch, ctx)

    def visit_decl(self, c, ctx: Ctx) -> None:
        if c.kind == K.DECL_STMT:
            for ch in c.get_children():
                self.visit_decl(ch, ctx)
            return
        if c.kind != K.VAR_DECL:
            self.visit(c, ctx)
            return
        toks = [t.spelling for t in _tokens(c)[:4]]
        if "constexpr" in toks:
            return
        name_at = c.location.offset
        for ch in c.get_children():
            if ch.extent.start.offset > name_at and (ch.kind.is_expression() or ch.kind == K.LAMBDA_EXPR):
                self.visit(ch, ctx)

    # ---- statements --------------------------------------------------------------------------------

    def removable(self, c) -> bool:
        if self.in_macro(c):
            return False
        if c.kind == K.CALL_EXPR:
            callee = c.spelling
            if callee in self.skip_calls:
                return False
            return True
        if c.kind in (K.COMPOUND_ASSIGNMENT_OPERATOR,):
            return True
        if c.kind == K.BINARY_OPERATOR:
            return self.binary_op(c) == "="
        if c.kind == K.UNARY_OPERATOR:
            toks = _tokens(c)
            return bool(toks) and (toks[0].spelling in ("++", "--") or toks[-1].spelling in ("++", "--"))
        return False

    def written(self, c) -> Optional[str]:
        """What an effect statement writes, as a path of its text ("rep.act", "paste.keys"); None
        when it cannot be told (a free function's call)."""
        children = list(c.get_children())
        if c.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and children:
            return "".join(t.spelling for t in _tokens(children[0]))
        if c.kind == K.UNARY_OPERATOR and children:
            return "".join(t.spelling for t in _tokens(children[0]))
        if c.kind == K.CALL_EXPR and c.spelling in ("operator=", "operator+=", "operator-=", "operator++", "operator--"):
            toks = [t.spelling for t in _tokens(c)]
            ops = [i for i, t in enumerate(toks) if t in ("=", "+=", "-=", "++", "--")]
            if not ops:
                return None
            lhs = toks[:ops[0]] if ops[0] > 0 else toks[ops[0] + 1:]
            return "".join(lhs) or None
        if c.kind == K.CALL_EXPR:
            toks = [t.spelling for t in _tokens(c)]
            if "(" not in toks:
                return None
            head = toks[:toks.index("(")]
            for sep in (".", "->"):
                if sep in head:
                    cut = len(head) - 1 - head[::-1].index(sep)
                    return "".join(head[:cut])
            return None
        return None

    def dependent(self, a, b) -> bool:
        """Whether two adjacent effect statements can tell their order: one writes what the other
        mentions, or one is a free function's call sharing a name with the other. Two writes of
        different fields (`ev.unchanged = ...; ev.borrowed = ...`) are equivalent in either order
        and make no `swapped_statements` mutant."""
        import re as _re
        ta = "".join(t.spelling if t.kind != ci.TokenKind.KEYWORD else " " + t.spelling + " " for t in _tokens(a))
        tb = "".join(t.spelling if t.kind != ci.TokenKind.KEYWORD else " " + t.spelling + " " for t in _tokens(b))
        wa, wb = self.written(a), self.written(b)
        if wa is None or wb is None:
            ids_a = {t.spelling for t in _tokens(a) if t.kind == ci.TokenKind.IDENTIFIER}
            ids_b = {t.spelling for t in _tokens(b) if t.kind == ci.TokenKind.IDENTIFIER}
            return bool(ids_a & ids_b - {"std"})

        def mentions(text, path):
            return _re.search(r"(?<![\w.>])" + _re.escape(path) + r"(?![\w])", text) is not None

        def within(x, y):  # x is y or a part of it ("a.b" within "a"), path-wise
            return x == y or x.startswith(y + ".") or x.startswith(y + "->") or x.startswith(y + "[")

        return mentions(tb, wa) or mentions(ta, wb) or within(wa, wb) or within(wb, wa)

    def visit_compound(self, c, ctx: Ctx) -> None:
        stmts = list(c.get_children())
        for s in stmts:
            self.statement(s, ctx)
        # Adjacent pairs of effect statements, in the other order (pairs do not overlap).
        i = 0
        while i + 1 < len(stmts):
            a, b = stmts[i], stmts[i + 1]
            if self.removable(a) and self.removable(b) and not ctx.skip and self.dependent(a, b):
                a0, a1 = self.ext(a)
                b0, b1 = self.ext(b)

                def render(r, e, a0=a0, a1=a1, b0=b0, b1=b1):
                    (m, _), = e.mutants
                    A, B = r.sub(e, a0, a1), r.sub(e, b0, b1)
                    return (f"if ({SWITCH}({m.id})) {{ {r.mark(m.id, B + '; ' + A)}; }} "
                            f"else {{ {A}; {B}; }} (void)0")

                def plain(sub, a0=a0, a1=a1, b0=b0, b1=b1):
                    return sub(b0, b1) + "; " + sub(a0, a1)

                self._add(a0, b1, render, a, ctx, [("swapped_statements", plain)])
                i += 2
            else:
                i += 1

    def statement(self, s, ctx: Ctx) -> None:
        if ctx.skip:
            return
        if s.kind.is_expression() and self.removable(s):
            s0, s1 = self.ext(s)

            def render(r, e):
                (m, _), = e.mutants
                return f"if ({SWITCH}({m.id})) {{{r.mark(m.id, '')}}} else {r.inner(e)}"

            self._add(s0, s1, render, s, ctx, [("removed_statement", lambda sub: "")], holds_same_range=True)
        self.visit(s, ctx)

    def early_exit(self, block, ctx: Ctx, how: str) -> None:
        if ctx.skip:
            return
        if how == "return" and (ctx.return_type is None or ctx.return_type.kind != ci.TypeKind.VOID):
            return
        toks = _tokens(block)
        if not toks or toks[0].spelling != "{" or len(list(block.get_children())) == 0:
            return
        at = toks[0].extent.end.offset

        def render(r, e, how=how):
            (m, _), = e.mutants
            return f" if ({SWITCH}({m.id})) {r.mark(m.id, how + ';')} "

        self._add(at, at, render, block, ctx, [("early_exit", lambda sub, how=how: f" {how}; ")])

    def if_condition(self, c) -> Optional[ci.Cursor]:
        toks = _tokens(c)
        if len(toks) < 2 or toks[0].spelling != "if" or toks[1].spelling == "constexpr" or toks[1].spelling != "(":
            return None
        depth = 0
        rp = None
        for t in toks[1:]:
            if t.spelling == "(":
                depth += 1
            elif t.spelling == ")":
                depth -= 1
                if depth == 0:
                    rp = t.extent.start.offset
                    break
        if rp is None:
            return None
        lp = toks[1].extent.end.offset
        inside = [ch for ch in c.get_children() if lp <= ch.extent.start.offset and ch.extent.end.offset <= rp]
        if len(inside) != 1 or not inside[0].kind.is_expression():
            return None
        return inside[0]

    def visit_if(self, c, ctx: Ctx) -> None:
        cond = self.if_condition(c)
        children = list(c.get_children())
        has_else = cond is not None and cond in children and len(children) - children.index(cond) - 1 >= 2
        if cond is not None:
            self.negate(cond, ctx, "swapped_branches" if has_else else "negated_condition")
        for ch in children:
            if ch.kind == K.COMPOUND_STMT:
                how = "continue" if ctx.in_loop else "return"
                self.early_exit(ch, ctx, how)
                self.visit_compound(ch, ctx)
            elif ch is not cond and ch.kind.is_expression() and ch.extent.start.offset > (cond.extent.end.offset if cond else -1):
                self.statement(ch, ctx)  # a body without braces
            else:
                self.visit(ch, ctx)

    def negate(self, cond, ctx: Ctx, op: str) -> None:
        c0, c1 = self.ext(cond)

        def render(r, e):
            (m, _), = e.mutants
            inner = r.inner(e)
            return f"({SWITCH}({m.id}) ? {r.mark(m.id, '!static_cast<bool>(' + inner + ')')} : static_cast<bool>({inner}))"

        self._add(c0, c1, render, cond, ctx, [(op, lambda sub, c0=c0, c1=c1: "!(" + sub(c0, c1) + ")")],
                  holds_same_range=True)

    def visit_return(self, c, ctx: Ctx) -> None:
        children = [ch for ch in c.get_children()]
        if len(children) != 1 or ctx.return_type is None:
            for ch in children:
                self.visit(ch, ctx)
            return
        e = children[0]
        e0, e1 = self.ext(e)
        r0, r1 = self.ext(c)
        etext = self.src(e0, e1).strip()
        rt = ctx.return_type.get_canonical()
        alts: List[Tuple[str, str]] = []  # (how, replacement of the return's value)
        if rt.kind == ci.TypeKind.BOOL:
            if etext not in ("true", "false"):
                alts.append(("negate", ""))
        elif rt.kind == ci.TypeKind.ENUM:
            decl = rt.get_declaration()
            q = _qualified(decl)
            if q:
                names = [ch.spelling for ch in decl.get_children() if ch.kind == K.ENUM_CONSTANT_DECL]
                others = [n for n in names if not etext.endswith("::" + n) and etext != n][:3]
                alts.extend(("value", f"{q}::{n}") for n in others)
        elif rt.kind in (ci.TypeKind.LVALUEREFERENCE, ci.TypeKind.RVALUEREFERENCE, ci.TypeKind.AUTO,
                         ci.TypeKind.VOID, ci.TypeKind.POINTER):
            pass
        elif rt.spelling.startswith("std::optional<"):
            if etext != "std::nullopt" and etext != "{}":
                alts.append(("early", "std::nullopt"))
        elif rt.kind in INTEGER_KINDS:
            if etext != "0":
                alts.append(("early", "0"))
        else:
            if etext != "{}":
                alts.append(("early", "{}"))
        if alts and not ctx.skip:
            if alts[0][0] == "negate":
                def render(r, ed, e0=e0, e1=e1, r0=r0):
                    (m, _), = ed.mutants
                    inner = r.sub(ed, e0, e1)
                    return f"{r.src(r0, e0)}({SWITCH}({m.id}) ? {r.mark(m.id, '!static_cast<bool>(' + inner + ')')} : static_cast<bool>({inner}))"

                self._add(r0, r1, render, c, ctx,
                          [("return_value", lambda sub, e0=e0, e1=e1: "return !(" + sub(e0, e1) + ")")])
            elif alts[0][0] == "value":
                values = [v for _, v in alts]

                def render(r, ed, e0=e0, e1=e1, r0=r0):
                    inner = r.sub(ed, e0, e1)
                    out = r.src(r0, e0) + "("
                    for (m, _), v in zip(ed.mutants, values):
                        out += f"{SWITCH}({m.id}) ? {r.mark(m.id, v)} : "
                    return out + f"({inner}))"

                self._add(r0, r1, render, c, ctx,
                          [("return_value", (lambda sub, v=v: "return " + v)) for v in values])
            else:
                value = alts[0][1]

                def render(r, ed, value=value):
                    (m, _), = ed.mutants
                    return f"if ({SWITCH}({m.id})) {r.mark(m.id, 'return ' + value)}; else {r.inner(ed)}"

                self._add(r0, r1, render, c, ctx, [("return_value", lambda sub, value=value: "return " + value)])
        self.visit(e, ctx)

    # ---- expressions ---------------------------------------------------------------------------------

    def binary_op(self, c) -> Optional[str]:
        children = list(c.get_children())
        if len(children) != 2:
            return None
        lhs_end = children[0].extent.end.offset
        for t in _tokens(c):
            if t.extent.start.offset >= lhs_end:
                return t.spelling
        return None

    def visit_expr(self, c, ctx: Ctx) -> None:
        k = c.kind
        if k == K.LAMBDA_EXPR:
            self.visit(c, ctx)
            return
        if k == K.BINARY_OPERATOR:
            self.binary(c, ctx)  # visits its operands
            return
        if k == K.UNARY_OPERATOR:
            toks = _tokens(c)
            if toks and toks[0].spelling == "!":
                (x,) = list(c.get_children())[:1] or (None,)
                if x is not None:
                    x0, x1 = self.ext(x)

                    def render(r, e, x0=x0, x1=x1):
                        (m, _), = e.mutants
                        inner = r.sub(e, x0, x1)
                        return f"({SWITCH}({m.id}) ? {r.mark(m.id, 'static_cast<bool>(' + inner + ')')} : !({inner}))"

                    c0, c1 = self.ext(c)
                    self._add(c0, c1, render, c, ctx, [("negated_condition", lambda sub, x0=x0, x1=x1: sub(x0, x1))])
        elif k == K.CONDITIONAL_OPERATOR:
            ch = list(c.get_children())
            if len(ch) == 3:
                (q0, q1), (a0, a1), (b0, b1) = (self.ext(x) for x in ch)

                def render(r, e, q0=q0, q1=q1, a0=a0, a1=a1, b0=b0, b1=b1):
                    (m, _), = e.mutants
                    Q, A, B = r.sub(e, q0, q1), r.sub(e, a0, a1), r.sub(e, b0, b1)
                    return f"({SWITCH}({m.id}) ? {r.mark(m.id, f'(({Q}) ? ({B}) : ({A}))')} : (({Q}) ? ({A}) : ({B})))"

                c0, c1 = self.ext(c)
                self._add(c0, c1, render, c, ctx, [("swapped_branches", lambda sub, q0=q0, q1=q1, a0=a0, a1=a1, b0=b0, b1=b1:
                                                     f"({sub(q0, q1)}) ? ({sub(b0, b1)}) : ({sub(a0, a1)})")])
        elif k == K.INTEGER_LITERAL:
            self.int_literal(c, ctx)
            return
        elif k == K.CXX_BOOL_LITERAL_EXPR:
            t = self.src(*self.ext(c))
            if t in ("true", "false"):
                other = "false" if t == "true" else "true"

                def render(r, e, t=t, other=other):
                    (m, _), = e.mutants
                    return f"({SWITCH}({m.id}) ? {r.mark(m.id, other)} : {t})"

                self._add(*self.ext(c), render, c, ctx, [("constant", lambda sub, other=other: other)])
            return
        for ch in c.get_children():
            self.visit(ch, ctx)

    def int_literal(self, c, ctx: Ctx) -> None:
        c0, c1 = self.ext(c)
        t = self.src(c0, c1)
        digits = t.rstrip("uUlL")
        suffix = t[len(digits):]
        if not digits.isdigit() or c1 - c0 == 0:
            return
        n = int(digits)
        values = [n + 1] if n == 0 else [n + 1, n - 1]
        texts = [f"{v}{suffix}" for v in values]

        def render(r, e, t=t, texts=texts):
            out = "("
            for (m, _), v in zip(e.mutants, texts):
                out += f"{SWITCH}({m.id}) ? {r.mark(m.id, v)} : "
            return out + t + ")"

        self._add(c0, c1, render, c, ctx, [("constant", (lambda sub, v=v: v)) for v in texts])

    def binary(self, c, ctx: Ctx) -> None:
        op = self.binary_op(c)
        children = list(c.get_children())
        if op is None or len(children) != 2:
            return
        (l0, l1), (r0_, r1_) = self.ext(children[0]), self.ext(children[1])
        c0, c1 = self.ext(c)
        variants: List[Tuple[str, str]] = []
        if op in ("<", "<=", ">", ">="):
            boundary = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[op]
            opposite = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
            variants = [("boundary", boundary), ("relational", opposite)]
        elif op in ("==", "!="):
            variants = [("relational", "!=" if op == "==" else "==")]
        elif op in ("&&", "||"):
            variants = [("logical", "||" if op == "&&" else "&&")]
        if variants:
            def render(r, e, op=op, variants=variants, l0=l0, l1=l1, r0_=r0_, r1_=r1_):
                L, R = r.sub(e, l0, l1), r.sub(e, r0_, r1_)
                out = "("
                for (m, _), (_, o) in zip(e.mutants, variants):
                    out += f"{SWITCH}({m.id}) ? {r.mark(m.id, f'(({L}) {o} ({R}))')} : "
                return out + f"(({L}) {op} ({R})))"

            self._add(c0, c1, render, c, ctx,
                      [(name, (lambda sub, o=o, l0=l0, l1=l1, r0_=r0_, r1_=r1_: f"{sub(l0, l1)} {o} {sub(r0_, r1_)}"))
                       for name, o in variants])
        elif op in ("+", "-") and c.type.get_canonical().kind in INTEGER_KINDS:
            def render(r, e):
                inner = r.inner(e)
                (m1, _), (m2, _) = e.mutants
                return (f"({SWITCH}({m1.id}) ? {r.mark(m1.id, f'({inner}) + 1')} : "
                        f"{SWITCH}({m2.id}) ? {r.mark(m2.id, f'({inner}) - 1')} : ({inner}))")

            self._add(c0, c1, render, c, ctx,
                      [("boundary", lambda sub, c0=c0, c1=c1: f"({sub(c0, c1)}) + 1"),
                       ("boundary", lambda sub, c0=c0, c1=c1: f"({sub(c0, c1)}) - 1")], holds_same_range=True)
        for ch in children:
            self.visit(ch, ctx)


class Renderer:
    """Writes the file back with every edit's switch; records where each mutant's text landed, so a
    compiler error can be traced to the mutant that caused it."""

    def __init__(self, text: bytes, edits: List[Edit], disabled: set):
        self.text = text
        self.disabled = disabled
        live = []
        for e in edits:
            kept = [(m, f) for m, f in e.mutants if m.id not in disabled]
            if kept:
                live.append(Edit(e.start, e.end, e.order, e.render, kept, holds_same_range=e.holds_same_range))
        # Nest: sort by start, longer first; for equal ranges the edit that renders the whole range
        # through inner() first (it wraps the others), then in the order they were made (outer
        # constructs are visited first). An edit nested under one that cannot hold it would never be
        # written (mutants_not_written finds that).
        live.sort(key=lambda e: (e.start, -(e.end - e.start), not e.holds_same_range, e.order))
        self.root = Edit(-1, len(text) + 1, -1, None)
        stack = [self.root]
        for e in live:
            while not stack[-1].contains(e) and stack[-1] is not self.root:
                stack.pop()
            stack[-1].children.append(e)
            if e.end > e.start:
                stack.append(e)
        self.out_parts: List[str] = []
        self.spans: List[Tuple[int, int, int]] = []  # (id, start, end) in the output, by marker
        self._marks: Dict[int, int] = {}

    def src(self, a: int, b: int) -> str:
        return self.text[a:b].decode("utf-8", "replace")

    def mark(self, mutant_id: int, text: str) -> str:
        # Markers are removed after rendering; their positions say which mutant a line belongs to.
        return f"\x01{mutant_id}\x02{text}\x03"

    def _render(self, parent: Edit, a: int, b: int) -> str:
        out = []
        pos = a
        for ch in parent.children:
            if ch.start < a or ch.end > b:
                continue
            if ch.start < pos:
                continue
            out.append(self.src(pos, ch.start))
            out.append(ch.render(self, ch))
            pos = ch.end
        out.append(self.src(pos, b))
        return "".join(out)

    def inner(self, e: Edit) -> str:
        return self._render(e, e.start, e.end)

    def sub(self, e: Edit, a: int, b: int) -> str:
        return self._render(e, a, b)

    def render(self) -> Tuple[str, List[Tuple[int, int, int]]]:
        raw = self._render(self.root, 0, len(self.text))
        out = []
        spans = []
        stack = []
        i = 0
        n = 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\x01":
                j = raw.index("\x02", i)
                stack.append((int(raw[i + 1:j]), n))
                i = j + 1
                continue
            if ch == "\x03":
                mid, start = stack.pop()
                spans.append((mid, start, n))
                i += 1
                continue
            out.append(ch)
            n += 1
            i += 1
        return "".join(out), spans


def plain_mutated(text: bytes, edit: Edit, fn) -> str:
    """The edit's range with one mutant applied to the original text (no switches, no other mutant)."""
    def sub(a, b):
        return text[a:b].decode("utf-8", "replace")
    return fn(sub)


def find_mutants(path: str, rel: str, args: Sequence[str], skip_functions: Sequence[str], skip_calls: Sequence[str],
                 operators: Optional[Sequence[str]] = None):
    """Parses `path`; returns (Finder with edits, parse errors)."""
    load_libclang()
    index = ci.Index.create()
    tu = index.parse(path, args=list(args), options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    errors = [f"{d.location.file}:{d.location.line}: {d.spelling}" for d in tu.diagnostics
              if d.severity >= ci.Diagnostic.Error]
    with open(path, "rb") as f:
        text = f.read()
    finder = Finder(path, rel, text, skip_functions, skip_calls, operators)
    if not errors:
        finder.run(tu)
        for e in finder.edits:
            for m, fn in e.mutants:
                m.mutated = plain_mutated(text, e, fn)
    return finder, errors


def assign_ids_and_keys(finders: List[Finder], first_id: int = 1) -> List[Mutant]:
    """Numbers every mutant in file order and gives it a key that survives edits elsewhere."""
    out: List[Mutant] = []
    next_id = first_id
    for f in finders:
        seen: Dict[str, int] = {}
        ordered = sorted(f.edits, key=lambda e: (e.start, e.end, e.order))
        for e in ordered:
            for m, _ in e.mutants:
                m.id = next_id
                next_id += 1
                base = f"{m.file}::{m.function}::{m.operator}::{' '.join(m.original.split())}=>{' '.join(m.mutated.split())}"
                n = seen.get(base, 0)
                seen[base] = n + 1
                m.key = f"{base}::{n}"
                out.append(m)
    return out


HEADER = '#include "deskcheck_mutant.h"  // mutant schemata (tools/mutate-model): not the project\'s source\n'


def write_schemata(finder: Finder, disabled: set) -> Tuple[str, List[Tuple[int, int, int]]]:
    r = Renderer(finder.text, finder.edits, disabled)
    text, spans = r.render()
    shift = len(HEADER)
    return HEADER + text, [(mid, a + shift, b + shift) for mid, a, b in spans]


def mutants_not_written(finder: Finder, disabled: set, spans: List[Tuple[int, int, int]]) -> List[Mutant]:
    """The mutants of `finder` (not disabled) whose switch is not in the written file: an edit nested
    where its parent's rendering skips it. Never silently "not reached": the runner stops on any."""
    written = {mid for mid, _, _ in spans}
    return [m for e in finder.edits for m, _ in e.mutants if m.id not in disabled and m.id not in written]


RUNTIME_H = """// Mutant schemata runtime (tools/mutate-model). Generated into the mutated copy only.
#pragma once
namespace deskcheck_mutant {
extern int active;
extern unsigned char reached[];
}
inline bool dc_mutant(int id) noexcept {
    deskcheck_mutant::reached[id] = 1;
    return deskcheck_mutant::active == id;
}
"""

RUNTIME_CPP = """// Mutant schemata runtime (tools/mutate-model). Generated into the mutated copy only.
// DESKCHECK_MUTANT=N switches mutant N on (0 or unset: none); DESKCHECK_MUTANT_REACHED=FILE appends
// the ids of the mutation points the process reached to FILE when it exits.
#include <cstdio>
#include <cstdlib>
#include "deskcheck_mutant.h"

namespace deskcheck_mutant {
int active = 0;
unsigned char reached[%(count)d + 1];

__attribute__((constructor(101))) static void read_switch() {
    const char* v = std::getenv("DESKCHECK_MUTANT");
    active = v != nullptr ? std::atoi(v) : 0;
}

__attribute__((destructor)) static void write_reached() {
    const char* file = std::getenv("DESKCHECK_MUTANT_REACHED");
    if (file == nullptr || *file == 0) return;
    std::FILE* out = std::fopen(file, "a");
    if (out == nullptr) return;
    for (int i = 1; i <= %(count)d; ++i) {
        if (reached[i] != 0) std::fprintf(out, "%%d\\n", i);
    }
    std::fclose(out);
}
}  // namespace deskcheck_mutant
"""


def runtime_files(count: int) -> Dict[str, str]:
    return {"deskcheck_mutant.h": RUNTIME_H, "deskcheck_mutant.cpp": RUNTIME_CPP % {"count": max(count, 1)}}


def offset_of(text: str, line: int, col: int) -> int:
    pos = 0
    for _ in range(line - 1):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return pos + max(col - 1, 0)


def culprits(text: str, spans: List[Tuple[int, int, int]], finder: Finder, line: int, col: int) -> List[int]:
    """The mutants to blame for a compiler error at line:col of the written file: the innermost
    marked span containing it, or when it falls in an edit's own switch text, every mutant of the
    innermost edit on that line."""
    off = offset_of(text, line, col)
    inside = [(b - a, mid) for mid, a, b in spans if a <= off <= b]
    if inside:
        return [min(inside)[1]]
    # Not inside a mutant's own text: blame every mutant whose text shares the line.
    line_start = offset_of(text, line, 1)
    line_end = text.find("\n", line_start)
    line_end = len(text) if line_end < 0 else line_end
    on_line = sorted({mid for mid, a, b in spans if a <= line_end and b >= line_start})
    if on_line:
        return on_line
    before = [(a, mid) for mid, a, b in spans if a <= off]
    return [max(before)[1]] if before else []
