"""The ctypes side of the C ABI against the headers it restates: python/scankit/_capi.py against
python/src/capi.h, python/scankit/dist.py against python/src/capi_dist.h. Every function the
header declares has a prototype with the same result and argument types, and every argument
block (sk_<name>_args) the same fields, in the same order, at the same offsets and sizes. A
header change that the Python side does not follow fails here."""

import ctypes
import os
import re

import pytest

from scankit import _capi

_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src")

# C types of the headers and the ctypes types they are, by size and kind.
_SCALARS = {
    "int": ctypes.c_int, "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64, "double": ctypes.c_double,
    "uintptr_t": ctypes.c_size_t, "size_t": ctypes.c_size_t, "uint8_t": ctypes.c_uint8, "char": ctypes.c_char,
}


def _header(name):
    with open(os.path.join(_SRC, name)) as f:
        return f.read()


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_structs(text):
    """{struct name: [(field, C type), ...]} of the header's `typedef struct X {...} X;`."""
    text = _strip_comments(text)
    structs = {}
    for name, body in re.findall(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*\w+\s*;", text, flags=re.S):
        fields = []
        for decl in body.split(";"):
            decl = decl.strip()
            if not decl:
                continue
            m = re.match(r"((?:const\s+)?\w+\s*\**)\s*(.*)$", decl, flags=re.S)
            ctype, names = m.group(1).replace(" ", ""), m.group(2)
            for n in names.split(","):
                fields.append((n.strip(), ctype))
        structs[name] = fields
    return structs


def parse_functions(text):
    """{function name: (result C type, [parameter C types])} of the header's SK_API declarations."""
    text = _strip_comments(text)
    functions = {}
    for result, name, params in re.findall(r"SK_API\s+([\w\s\*]+?)\s*(\b\w+)\s*\(([^)]*)\)\s*;", text, flags=re.S):
        types = []
        params = " ".join(params.split())
        if params and params != "void":
            for p in params.split(","):
                p = p.strip()
                # Drop the parameter's name: the last identifier, unless the declaration is a type alone.
                m = re.match(r"(.*?[\s\*])(\w+)$", p)
                types.append((m.group(1) if m else p).replace(" ", "").replace("const", "const "))
        functions[name] = (result.replace(" ", ""), types)
    return functions


def _ctype_of(c, structs_by_name):
    """The ctypes type the C type `c` (spaces removed but after `const`) is passed as; a pointer
    to an argument block is its Structure."""
    c = c.replace("const ", "").replace("const", "")
    if c == "void":
        return None
    if c == "char*":
        return ctypes.c_char_p
    if c.endswith("*"):
        base = c[:-1]
        if base in structs_by_name:
            return structs_by_name[base]
        if base in ("void", "void*"):
            return ctypes.c_void_p if base == "void" else ctypes.POINTER(ctypes.c_void_p)
        return ctypes.POINTER(_SCALARS[base])
    return _SCALARS[c]


def _same_scalar(a, b):
    """Two ctypes scalar types pass the same way: size and (for integers) signedness."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    if ctypes.sizeof(a) != ctypes.sizeof(b):
        return False
    floating = (ctypes.c_double, ctypes.c_float)
    if (a in floating) != (b in floating):
        return False
    if a in floating:
        return True
    signed = lambda t: t(-1).value < 0  # noqa: E731
    return signed(a) == signed(b)


def _same_param(want, got):
    """A prototype's parameter type `got` is the header's `want`: a pointer to an argument block
    is that Structure; other pointers are the same pointer type or c_void_p (ctypes then takes an
    address as an int); strings are c_char_p."""
    if isinstance(want, type) and issubclass(want, ctypes.Structure):
        return isinstance(got, type) and issubclass(got, ctypes.Structure) and got.__name__ == want.__name__
    if want is ctypes.c_char_p or got is ctypes.c_char_p:
        return want is got
    want_ptr = want is ctypes.c_void_p or (isinstance(want, type) and issubclass(want, ctypes._Pointer))
    if want_ptr:
        if got is ctypes.c_void_p:
            return True
        return (isinstance(got, type) and issubclass(got, ctypes._Pointer)
                and (want is not ctypes.c_void_p) and _same_scalar(want._type_, got._type_))
    return _same_scalar(want, got)


def _structure(name, fields):
    return type(name, (ctypes.Structure,), {"_fields_": [(f, _SCALARS[t]) for f, t in fields]})


def mismatches(header_text, protos, blocks):
    """What differs between the header and the Python side (an empty list when nothing):
    protos {name: (result, [argument types])} as _capi._protos, blocks the Structures."""
    structs = parse_structs(header_text)
    functions = parse_functions(header_text)
    problems = []
    mine = {b.__name__: b for b in blocks}
    for name, fields in structs.items():
        got = mine.get(name)
        if got is None:
            problems.append(f"{name}: no ctypes Structure")
            continue
        want = _structure(name, fields)
        got_fields = [f for f, _ in got._fields_]
        if got_fields != [f for f, _ in fields]:
            problems.append(f"{name}: fields {got_fields}, the header's {[f for f, _ in fields]}")
            continue
        for (f, t), (_, gt) in zip(want._fields_, got._fields_):
            if not _same_scalar(t, gt) or getattr(want, f).offset != getattr(got, f).offset:
                problems.append(f"{name}.{f}: {gt.__name__} at {getattr(got, f).offset}, the header's "
                                f"{t.__name__} at {getattr(want, f).offset}")
        if ctypes.sizeof(want) != ctypes.sizeof(got):
            problems.append(f"{name}: {ctypes.sizeof(got)} bytes, the header's {ctypes.sizeof(want)}")
    for name in sorted(set(mine) - set(structs)):
        problems.append(f"{name}: not in the header")
    by_name = {n: _structure(n, f) for n, f in structs.items()}
    for name, (result, params) in functions.items():
        if name not in protos:
            problems.append(f"{name}: no prototype")
            continue
        got_result, got_params = protos[name]
        want_result = _ctype_of(result, by_name)
        if not (_same_param(want_result, got_result) if want_result is not None else got_result is None):
            problems.append(f"{name}: returns {got_result}, the header's {result}")
        if len(got_params) != len(params):
            problems.append(f"{name}: {len(got_params)} arguments, the header's {len(params)}")
            continue
        for i, (c, got) in enumerate(zip(params, got_params)):
            if not _same_param(_ctype_of(c, by_name), got):
                problems.append(f"{name}: argument {i} is {got}, the header's {c}")
    for name in sorted(set(protos) - set(functions)):
        problems.append(f"{name}: not in the header")
    return problems


def _capi_side():
    return _capi._protos, list(_capi.ARGS.values())


def test_capi_prototypes_and_blocks_match_the_header():
    protos, blocks = _capi_side()
    assert mismatches(_header("capi.h"), protos, blocks) == []


def test_the_header_parser_sees_every_declaration():
    text = _header("capi.h")
    functions = parse_functions(text)
    declared = [line for line in _strip_comments(text).splitlines()
                if "SK_API" in line and not line.lstrip().startswith("#")]
    assert len(functions) == len(declared) > 10
    structs = parse_structs(text)
    assert set(structs) == {f"sk_{n}_args" for n in _capi.ARGS}
    assert structs["sk_scan_args"][:4] == [("device", "int64_t"), ("dtype", "int64_t"), ("op", "int64_t"),
                                           ("exclusive", "int64_t")]


@pytest.mark.parametrize("change", ["swap fields", "drop field", "field type", "argument count", "argument type",
                                    "new function", "new block"])
def test_a_header_change_the_python_side_does_not_follow_fails(change):
    text = _header("capi.h")
    edits = {
        "swap fields": ("int64_t outer, len, inner;", "int64_t outer, inner, len;"),
        "drop field": ("int64_t value_bytes, indices, n, descending;", "int64_t value_bytes, indices, n;"),
        "field type": ("double lower, upper;", "int64_t lower, upper;"),
        "argument count": ("SK_API int sk_read_count(const sk_read_count_args* args, int64_t* value);",
                           "SK_API int sk_read_count(const sk_read_count_args* args);"),
        "argument type": ("SK_API const char* sk_algorithms(const char* primitive);",
                          "SK_API const char* sk_algorithms(int primitive);"),
        "new function": ("#ifdef __cplusplus\n}", "SK_API int sk_new_entry(int device);\n#ifdef __cplusplus\n}"),
        "new block": ("#ifdef __cplusplus\n}", "typedef struct sk_new_args { int64_t device; } sk_new_args;\n"
                                               "#ifdef __cplusplus\n}"),
    }
    old, new = edits[change]
    assert old in text, f"the test's edit of capi.h no longer applies: {old!r}"
    protos, blocks = _capi_side()
    assert mismatches(text.replace(old, new, 1), protos, blocks) != []


def test_codes_match_the_header():
    text = _strip_comments(_header("capi.h"))
    enums = dict((k, int(v)) for k, v in re.findall(r"\b(SK_\w+)\s*=\s*(\d+)", text))
    for name, code in _capi.DTYPE_CODES.items():
        assert enums["SK_" + _short(name)] == code
    for name, code in _capi.OP_CODES.items():
        assert enums["SK_OP_" + name.upper()] == code
    assert (enums["SK_PRED_NONZERO"], enums["SK_PRED_LESS"], enums["SK_PRED_GREATER"]) == (
        _capi.PRED_NONZERO, _capi.PRED_LESS, _capi.PRED_GREATER)
    status = ["SK_OK", "SK_EVALUE", "SK_ETYPE", "SK_ENOMEM", "SK_ENODEVICE", "SK_ECUDA", "SK_EOTHER", "SK_ECAPTURING"]
    assert [enums[s] for s in status] == [_capi.OK, _capi.EVALUE, _capi.ETYPE, _capi.ENOMEM, _capi.ENODEVICE,
                                          _capi.ECUDA, _capi.EOTHER, _capi.ECAPTURING]
    kept = re.search(r"#define\s+SK_SCAN_KEPT_WORKSPACE\s+(\d+)", text)
    assert int(kept.group(1)) == _capi.SCAN_KEPT_WORKSPACE
    for name, code in (("ARGMIN", _capi.REDUCE_ARGMIN), ("ARGMAX", _capi.REDUCE_ARGMAX),
                       ("MIN_MAX", _capi.REDUCE_MIN_MAX)):
        assert int(re.search(rf"#define\s+SK_REDUCE_{name}\s+(\d+)", text).group(1)) == code


def _short(name):
    """SK_* suffix of a dtype name: int32 -> I32, uint8 -> U8, float64 -> F64, bfloat16 -> BF16."""
    for prefix, letter in (("uint", "U"), ("int", "I"), ("float", "F"), ("bfloat", "BF")):
        if name.startswith(prefix):
            return letter + name[len(prefix):]
    return name.upper()


def test_dist_prototypes_match_the_header():
    # scankit.dist loads its libraries only when used; its prototype tables need neither.
    from scankit import dist

    text = _header("capi_dist.h")
    protos = dict(dist.DIST_PROTOS)
    protos.update(dist.NCCL_PROTOS)
    blocks = list(dist.ARGS.values())
    assert mismatches(text, protos, blocks) == []
    assert len(parse_structs(text)) == len(blocks) > 5
    for old, new in (("int64_t dtype, op, exclusive;", "int64_t dtype, exclusive, op;"),
                     ("SK_API void sk_dist_take(void* result, void* dst);", "SK_API void sk_dist_take(void* result);")):
        assert old in text, f"the test's edit of capi_dist.h no longer applies: {old!r}"
        assert mismatches(text.replace(old, new, 1), protos, blocks) != []
