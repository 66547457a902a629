#!/usr/bin/env python3
"""Independent reference implementation of /work/shared/SPEC.md (fieldscope).

Written from SPEC.md and the list of documented choices where the spec is
silent; it does not look at the Rust sources.  Python 3 standard library plus
`jsonschema` (draft-07 validation only).

Entry point: ``evaluate(truth_records, models, schema=None, config=None,
costs=None, preset=None) -> report dict`` (the JSON keys of SPEC section 5,
without ``document_details``).  ``models`` maps a model name to its list of
prediction records (dicts, already parsed).  ``load_records(path)`` reads a
``.json`` array, a ``.json`` id -> record map or a ``.jsonl`` file.
"""

import copy
import itertools
import json
import math
import re
import unicodedata

# --------------------------------------------------------------------------
# configuration (SPEC section 4)

DEFAULT_CONFIG = {
    "preset": "standard",
    "id_field": None,
    "absent_values": ["NOT_FOUND", "N/A", ""],
    "ignored_fields": [],
    "numeric_string_fields": [],
    "date_fields": [],
    "date_order": "dmy",
    "case_sensitive": False,
    "numeric_tolerance": 0,
    "string_match": {"method": "similarity", "cer_threshold": 0.15},
    "partial_matching": {"string": {"exact_threshold": 0.85, "partial_threshold": 0.40}},
    "incorrect_counts_as": ["fp", "fn"],
    "zero_division": 0,
    "empty_document_score": 1,
    "macro_f1": "harmonic",
    "item_f1_threshold": 0.85,
    "top_k": [1, 3, 5],
    "document_extraction_score": {
        "weights": {"numeric_precision": 0.50, "field_f1_partial": 0.35, "schema_validity": 0.15}
    },
    # SPEC section 7 (field_types and schema_by are not exercised here: the
    # generator sets neither; the keys are part of the effective config).
    "field_types": {},
    "schema_by": None,
}

PRESETS = {
    "standard": {},
    "exact": {"string_match": {"method": "exact"}},
    "not-found": {"string_match": {"method": "exact"}, "incorrect_counts_as": ["fp"]},
    "invoice-cer": {"string_match": {"method": "cer", "cer_threshold": 0.15}, "item_f1_threshold": 0.85},
}

ID_CANDIDATES = ["id", "filename", "doc_id", "document_id", "custom_id"]
METADATA_KEYS = {"cost", "latency", "usage", "model"}
RAW_KEYS = ["output", "response", "prediction", "completion", "content", "text"]


def _merge(base, over):
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def effective_config(config=None, preset=None):
    """defaults < preset < config file < command-line preset choice."""
    config = config or {}
    name = preset or config.get("preset") or "standard"
    cfg = _merge(DEFAULT_CONFIG, PRESETS[name])
    cfg = _merge(cfg, {k: v for k, v in config.items() if k != "preset"})
    cfg["preset"] = name
    return cfg


# --------------------------------------------------------------------------
# text helpers

# Unicode White_Space property (what Rust's char::is_whitespace uses)
WHITESPACE = set(
    "\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def ws_split(s):
    parts, cur = [], []
    for ch in s:
        if ch in WHITESPACE:
            if cur:
                parts.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        parts.append("".join(cur))
    return parts


def ws_strip(s):
    i, j = 0, len(s)
    while i < j and s[i] in WHITESPACE:
        i += 1
    while j > i and s[j - 1] in WHITESPACE:
        j -= 1
    return s[i:j]


def nfc(v):
    if isinstance(v, str):
        return unicodedata.normalize("NFC", v)
    if isinstance(v, list):
        return [nfc(x) for x in v]
    if isinstance(v, dict):
        return {nfc(k): nfc(x) for k, x in v.items()}
    return v


def serde_float(x):
    """A float as serde_json 1.0.154 prints it: shortest round-trip digits; plain
    notation for 1e-5 <= |x| < 1e16, else d.ddde+X / d.ddde-X."""
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    r = repr(abs(x))
    mant, _, exp = r.partition("e")
    e = int(exp) if exp else 0
    ip, _, fp = mant.partition(".")
    if fp == "0":
        fp = ""
    digits = (ip + fp).lstrip("0")
    e -= len(fp)
    # strip trailing zeros of the digit string into the exponent
    while digits.endswith("0"):
        digits = digits[:-1]
        e += 1
    n = len(digits)
    kk = n + e
    if 0 <= e and kk <= 16:
        s = digits + "0" * e + ".0"
    elif 0 < kk <= 16:
        s = digits[:kk] + "." + digits[kk:]
    elif -5 < kk <= 0:
        s = "0." + "0" * (-kk) + digits
    else:
        ex = kk - 1
        es = ("e+%d" % ex) if ex >= 0 else ("e%d" % ex)
        s = (digits if n == 1 else digits[0] + "." + digits[1:]) + es
    return sign + s


def _json_compact(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return serde_float(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(_json_compact(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _json_compact(x)
                              for k, x in v.items()) + "}"
    raise TypeError(type(v))


def json_text(v):
    """serde_json-like compact JSON text of a value (strings are themselves)."""
    if isinstance(v, str):
        return v
    return _json_compact(v)


def norm_text(v, cfg):
    s = v if isinstance(v, str) else json_text(v)
    s = " ".join(ws_split(s))
    if not cfg["case_sensitive"]:
        s = s.lower()
    return s


def levenshtein(a, b):
    if a == b:
        return 0
    if not a:
        return len(b)
    if not b:
        return len(a)
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        prev = cur
    return prev[-1]


def similarity(a, b):
    m = max(len(a), len(b))
    if m == 0:
        return 1.0
    return 1 - levenshtein(a, b) / m


# --------------------------------------------------------------------------
# absent values (1.4)

def is_absent(v, cfg):
    if v is None:
        return True
    if isinstance(v, list) and len(v) == 0:
        return True
    if isinstance(v, str):
        key = v.strip().lower()
        for a in cfg["absent_values"]:
            if isinstance(a, str) and a.strip().lower() == key:
                return True
    return False


# --------------------------------------------------------------------------
# value parsers (2.1)

_NUM_RE = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def parse_number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if not isinstance(v, str):
        return None
    s = "".join(ch for ch in v if ch not in WHITESPACE and unicodedata.category(ch) != "Sc")
    has_dot, has_comma = "." in s, "," in s
    if has_dot and has_comma:
        dec, other = (".", ",") if s.rfind(".") > s.rfind(",") else (",", ".")
        s = s.replace(other, "")
        if s.count(dec) > 1:
            return None
        s = s.replace(dec, ".")
    elif has_comma:
        if s.count(",") == 1 and re.search(r",[0-9]{1,2}$", s):
            s = s.replace(",", ".")
        else:
            s = s.replace(",", "")
    elif has_dot:
        if s.count(".") > 1:
            s = s.replace(".", "")
    if not _NUM_RE.match(s):
        return None
    try:
        x = float(s)
    except ValueError:
        return None
    if math.isinf(x) or math.isnan(x):
        return None
    return x


def round_half_away(x):
    r = math.floor(x)
    d = x - r
    if d > 0.5 or (d == 0.5 and x > 0):
        r += 1
    return int(r)


def numbers_equal(a, b, tol):
    return abs(round_half_away(a * 1e6) - round_half_away(b * 1e6)) <= round_half_away(tol * 1e6)


_ISO_RE = re.compile(
    r"^([0-9]{4})-([0-9]{2})-([0-9]{2})"
    r"(?:[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?)?$"
)
_DOT_RE = re.compile(r"^([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})$")
_SLASH_RE = re.compile(r"^([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})$")


def _valid_date(y, m, d):
    if not (1 <= m <= 12) or d < 1:
        return None
    mdays = [31, 29 if (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)) else 28,
             31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    if d > mdays:
        return None
    return (y, m, d)


def parse_date(v, order):
    if not isinstance(v, str):
        return None
    s = ws_strip(v)
    m = _ISO_RE.match(s)
    if m:
        if m.group(4) is not None and _OPTS["validate_time"]:
            hh, mm = int(m.group(4)), int(m.group(5))
            ss = int(m.group(6)) if m.group(6) else 0
            if hh == 24 and mm == 0 and ss == 0 and _OPTS["allow_end_of_day_2400"]:
                pass  # ISO 8601 end of day
            elif hh > 23 or mm > 59 or ss > 60:
                return None
        return _valid_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _DOT_RE.match(s)
    if m:
        return _valid_date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
    m = _SLASH_RE.match(s)
    if m:
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if order == "mdy":
            return _valid_date(y, a, b)
        return _valid_date(y, b, a)
    return None


def parse_bool(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        s = v.strip().lower()
        if s == "true":
            return True
        if s == "false":
            return False
    return None


# --------------------------------------------------------------------------
# loading

class MapRecord(dict):
    """A record read from a .json id -> record map; carries its key as id."""
    map_id = None


def load_records(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8")
    if path.endswith(".jsonl"):
        out = []
        for line in text.split("\n"):
            if line.endswith("\r"):
                line = line[:-1]
            if ws_strip(line):
                out.append(json.loads(line))
        return out
    obj = json.loads(text)
    if isinstance(obj, list):
        return obj
    if isinstance(obj, dict):
        out = []
        for k, v in obj.items():
            r = MapRecord(v if isinstance(v, dict) else {})
            r.map_id = k
            out.append(r)
        return out
    raise ValueError("unsupported file shape: " + path)


def id_text(v):
    if isinstance(v, str):
        return v.strip()
    return json_text(v).strip()


_EXT_RE = re.compile(r"^(.+)\.([A-Za-z0-9]{1,8})$", re.S)


def strip_ext(s):
    m = _EXT_RE.match(s)
    if m and re.search(r"[A-Za-z]", m.group(2)):
        return m.group(1)
    return s


# --------------------------------------------------------------------------
# raw model output (1.3)

def _strip_fence(text):
    i = text.find("```")
    if i < 0:
        return text
    nl = text.find("\n", i)
    if nl < 0:
        return text
    rest = text[nl + 1:]
    j = rest.find("```")
    return rest if j < 0 else rest[:j]


def _first_brace_block(text):
    start = text.find("{")
    if start < 0:
        return None
    depth, in_str, esc = 0, False, False
    for k in range(start, len(text)):
        ch = text[k]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:k + 1]
    return None


def _json_loads_strict(s):
    def bad_const(c):
        raise ValueError(c)
    return json.loads(s, parse_constant=bad_const)


def parse_raw_text(text):
    """Return a dict, or None when the text does not parse to an object."""
    try:
        obj = _json_loads_strict(_strip_fence(text).strip())
        if isinstance(obj, dict):
            return obj
        if not _OPTS["raw_nonobject_falls_back"]:
            return None
    except ValueError:
        pass
    block = _first_brace_block(text)
    if block is None:
        return None
    try:
        obj = _json_loads_strict(block)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


# --------------------------------------------------------------------------
# schema paths

def _first_type(node):
    t = node.get("type") if isinstance(node, dict) else None
    if isinstance(t, list):
        for x in t:
            if x != "null":
                return x
        return None
    return t


def schema_paths(schema):
    """path -> (kind, node); kinds 'scalar', 'set', 'item' (item list path)."""
    out = {}

    def walk(node, prefix, in_item):
        props = node.get("properties") if isinstance(node, dict) else None
        if not isinstance(props, dict):
            return
        for name, sub in props.items():
            if not isinstance(sub, dict):
                sub = {}
            path = prefix + name
            t = _first_type(sub)
            if t == "object" or (t is None and isinstance(sub.get("properties"), dict)):
                walk(sub, path + ".", in_item)
            elif t == "array" and not in_item:
                it = sub.get("items") if isinstance(sub.get("items"), dict) else {}
                itt = _first_type(it)
                if itt == "object" or (itt is None and isinstance(it.get("properties"), dict)):
                    out[path] = ("item", sub)
                    walk(it, path + "[].", True)
                else:
                    out[path] = ("set", sub)
            else:
                out[path] = ("scalar", sub)

    if isinstance(schema, dict):
        walk(schema, "", False)
    return out


# --------------------------------------------------------------------------
# the evaluator

class _Ctx:
    pass


def _ignored(path, cfg):
    for ig in cfg["ignored_fields"]:
        if path == ig or path.startswith(ig + ".") or path.startswith(ig + "[]"):
            return True
    return False


def _raw_flatten(obj, prefix, cfg, out):
    """Walk objects; record every non-object value at its dotted path."""
    for k, v in obj.items():
        path = prefix + k
        if _ignored(path, cfg):
            continue
        if isinstance(v, dict):
            _raw_flatten(v, path + ".", cfg, out)
        else:
            out[path] = v


def _item_flatten(obj, prefix, cfg, out):
    for k, v in obj.items():
        path = prefix + k
        if _ignored(path, cfg):
            continue
        if isinstance(v, dict):
            _item_flatten(v, path + ".", cfg, out)
        elif isinstance(v, list):
            out[path] = None if len(v) == 0 else json_text(v)
        else:
            out[path] = v


def _safe_div(a, b, zd):
    return a / b if b else zd


def _f1(p, r):
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _zero_counts():
    return {"exact": 0, "partial": 0, "incorrect": 0, "missed": 0, "spurious": 0, "true_negative": 0}


def _add(c, key, n=1):
    c[key] += n


def strict_scores(c, cfg):
    zd = cfg["zero_division"]
    cor, par, inc = c["exact"], c["partial"], c["incorrect"]
    mis, spu, tn = c["missed"], c["spurious"], c["true_negative"]
    tp = cor
    fp = inc + par + spu
    fn = mis + ((inc + par) if "fn" in cfg["incorrect_counts_as"] else 0)
    p = _safe_div(tp, tp + fp, zd)
    r = _safe_div(tp, tp + fn, zd)
    n = cor + par + inc + mis + spu + tn
    return {"precision": p, "recall": r, "f1": _f1(p, r), "accuracy": _safe_div(tp + tn, n, zd)}


def _truth_pred(c):
    t = c["exact"] + c["partial"] + c["incorrect"] + c["missed"]
    p = c["exact"] + c["partial"] + c["incorrect"] + c["spurious"]
    return t, p


# Readings of points that neither SPEC.md nor the list of documented choices
# settles.  The defaults are what this reference believes the spec means;
# compare.py re-runs with an alternative to tell "a different reading" apart
# from "a bug".
DEFAULT_OPTIONS = {
    # A prediction record that lacks the truth's id field and takes its id from
    # another key (id/filename/...): is that key evaluated as a field?
    "fallback_id_key_is_field": False,
    # Is the time of an ISO date-time checked (hour 0-23 or 24:00:00, minute
    # 0-59, second 0-60), so that "2024-02-29T25:99:99" is not a date?
    "validate_time": True,
    # With validate_time: is 24:00[:00] (ISO 8601 "end of day") a valid time?
    "allow_end_of_day_2400": True,
    # Raw output whose (fence-stripped) text parses as JSON but not to an
    # object, e.g. [{"total": 1}]: fall back to the first balanced {...} block?
    "raw_nonobject_falls_back": True,
    # Equal-total item matchings: "spec73" (SPEC section 7.3, the default):
    # exact total item F1, then exact total partial credit, then the
    # lexicographically smallest prediction indices in truth order (unmatched
    # last), all with fractions.Fraction. The readings before section 7.3,
    # after the (i, i) preference: "lex" takes the matching whose pair list
    # (truth order) is lexicographically smallest; "displacement" first
    # minimises the sum of |i - j| over matched pairs.
    "item_tie_break": "spec73",
    # Testing aid: {"model/doc id/list path": [(i, j), ...]} imposes a matching
    # (e.g. the one the Rust tool reports with --details); the reference checks
    # that it has the maximum total weight and notes it when it does not.
    "forced_pairs": None,
    # Testing aid: with forced_pairs, take them as they are without checking
    # that they are maximal (the check enumerates every matching, which is
    # out of reach beyond about 8 items); bootstrap_compare.py uses it on
    # datasets with up to 30 items per invoice.
    "trust_forced_pairs": False,
}

_OPTS = dict(DEFAULT_OPTIONS)  # the options of the evaluate() call in progress


def evaluate(truth_records, models, schema=None, config=None, costs=None, preset=None,
             notes=None, options=None, tallies=None):
    """Compute the report (SPEC section 5, without document_details).

    ``notes`` (optional list) receives remarks about situations the spec leaves
    open (e.g. ties in item matching whose choice changes the numbers).
    ``tallies`` (optional dict) receives, per model name, what each truth
    document contributes: ``{"fields": [field names, sorted], "has_items":
    bool, "documents": [{"counts", "fields": {field: counts}, "numeric":
    (exact, total), "valid": bool, "items": (recognised, truth, pred)}]}``
    (used by bootstrap_compare.py to resample documents)."""
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options or {})
    _OPTS.clear()
    _OPTS.update(opts)
    cfg = effective_config(config, preset)
    if notes is None:
        notes = []
    zd = cfg["zero_division"]
    schema = nfc(schema) if schema is not None else None
    truth_records = [_nfc_rec(r) for r in truth_records]
    models = {name: [_nfc_rec(r) for r in recs] for name, recs in models.items()}

    # ---- ids -------------------------------------------------------------
    truth_is_map = len(truth_records) > 0 and all(isinstance(r, MapRecord) for r in truth_records)
    id_field = cfg["id_field"]
    if id_field is None:
        # (for an id -> record map the key is the id; an id field carried by
        # every record is still recognised, and not evaluated)
        for cand in ID_CANDIDATES:
            if truth_records and all(isinstance(r, dict) and cand in r for r in truth_records):
                id_field = cand
                break
    positional = id_field is None and not truth_is_map

    truth_docs = []  # list of (id, payload)
    seen = set()
    for k, r in enumerate(truth_records, 1):
        if isinstance(r, MapRecord):
            rid = r.map_id.strip()
        elif positional:
            rid = "#%d" % k
        else:
            rid = id_text(r.get(id_field)) if id_field in r else "#%d" % k
        if rid in seen:
            continue
        seen.add(rid)
        payload = {k2: v for k2, v in r.items() if k2 != id_field and k2 not in METADATA_KEYS}
        truth_docs.append((rid, payload))
    truth_ids = [d[0] for d in truth_docs]
    truth_top_keys = set()
    for r in truth_records:
        truth_top_keys.update(r.keys())

    # ---- predictions -----------------------------------------------------
    model_docs = {}   # name -> {truth id: payload or INVALID}
    model_cost = {}
    INVALID = object()
    for name, recs in models.items():
        cost = None
        entries = []  # (id, payload or INVALID) in file order
        for k, r in enumerate(recs, 1):
            if not isinstance(r, dict):
                continue
            c = r.get("cost")
            if isinstance(c, (int, float)) and not isinstance(c, bool):
                cost = (cost or 0) + c
            used = None
            content = _batch_content(r)
            if isinstance(r, MapRecord):
                rid = r.map_id.strip()
            elif positional:
                rid = "#%d" % k
            elif content is not None:
                # OpenAI Batch API output line: the id is custom_id
                rid, used = id_text(r["custom_id"]), "custom_id"
            elif id_field is not None and id_field in r:
                rid, used = id_text(r[id_field]), id_field
            else:
                rid = "#%d" % k
                for cand in ID_CANDIDATES:
                    if cand in r:
                        rid, used = id_text(r[cand]), cand
                        break
            drop = used
            if opts["fallback_id_key_is_field"] and used != id_field and used != "custom_id":
                drop = None
            base = {k2: v for k2, v in r.items()
                    if k2 != drop and k2 != id_field and k2 not in METADATA_KEYS}
            payload = base
            if content is not None:
                payload = _clean_payload(parse_raw_text(content), id_field)
            elif (len(base) == 1 and next(iter(base)) in RAW_KEYS
                  and isinstance(next(iter(base.values())), str)
                  and next(iter(base)) not in truth_top_keys):
                payload = _clean_payload(parse_raw_text(next(iter(base.values()))), id_field)
            entries.append((rid, payload if payload is not None else INVALID))
        if costs and name in costs:
            cost = costs[name]
        model_cost[name] = cost
        first = {}
        for rid, payload in entries:
            if rid not in first:
                first[rid] = payload
        tset = set(truth_ids)
        matched = {}  # insertion order = file order of the winning records
        if any(rid in tset for rid in first):
            for rid, payload in first.items():
                if rid in tset:
                    matched[rid] = payload
        else:
            tmap = {}
            for tid in truth_ids:
                tmap.setdefault(strip_ext(tid), tid)
            pmap = {}
            for rid, payload in first.items():
                pmap.setdefault(strip_ext(rid), payload)
            for s, payload in pmap.items():
                if s in tmap and tmap[s] not in matched:
                    matched[tmap[s]] = payload
        model_docs[name] = matched

    # ---- path kinds --------------------------------------------------------
    # schema paths; the id field and the top-level metadata keys are never evaluated
    sch = {p: v for p, v in schema_paths(schema).items()
           if not _ignored(p, cfg) and p != id_field and p not in METADATA_KEYS
           and not any(p.startswith(k + ".") or p.startswith(k + "[]") for k in METADATA_KEYS)}
    truth_raw = [_raw(p, cfg) for _, p in truth_docs]
    model_raw = {}
    for name in models:
        md = model_docs[name]
        model_raw[name] = {tid: _raw(md[tid], cfg) for tid in truth_ids
                           if tid in md and md[tid] is not INVALID}
    # matched records in file order for kind decisions
    kinds = {}
    all_top_paths = set(sch)
    for fl in truth_raw:
        all_top_paths.update(fl)
    for name in models:
        for fl in model_raw[name].values():
            all_top_paths.update(fl)
    ordered_sources = list(truth_raw)
    for name in models:
        for tid in _file_order(models[name], model_docs[name], truth_ids):
            if tid in model_raw[name]:
                ordered_sources.append(model_raw[name][tid])
    for path in all_top_paths:
        if path in sch:
            kinds[path] = sch[path][0]
            continue
        kind = None
        for fl in ordered_sources:
            if path in fl and not is_absent(fl[path], cfg):
                v = fl[path]
                if isinstance(v, list):
                    kind = "item" if isinstance(v[0], dict) else "set"
                else:
                    kind = "scalar"
                break
        kinds[path] = kind or "scalar"

    def item_fields_of(flat):
        """item-field path -> list of item flats per item-list path."""
        out = {}
        for path, v in flat.items():
            if kinds.get(path) == "item":
                items = []
                if isinstance(v, list):
                    for el in v:
                        d = {}
                        if isinstance(el, dict):
                            _item_flatten(el, path + "[].", cfg, d)
                        items.append(d)
                out[path] = items
        return out

    truth_items = [item_fields_of(fl) for fl in truth_raw]
    model_items = {name: {tid: item_fields_of(fl) for tid, fl in model_raw[name].items()}
                   for name in models}

    def paths_of(flat, items):
        s = set()
        for p in flat:
            if kinds.get(p) in ("scalar", "set"):
                s.add(p)
        for lp, its in items.items():
            for it in its:
                s.update(it.keys())
        return s

    truth_paths = set()
    for fl, its in zip(truth_raw, truth_items):
        truth_paths |= paths_of(fl, its)
    model_paths = {}
    for name in models:
        s = set()
        for tid, fl in model_raw[name].items():
            s |= paths_of(fl, model_items[name][tid])
        model_paths[name] = s
    schema_field_paths = {p for p, (k, _) in sch.items() if k in ("scalar", "set")}
    item_list_paths_all = {p for p, k in kinds.items() if k == "item"}

    # present anywhere?
    present = set()

    def mark_present(fl, its):
        for p, v in fl.items():
            if kinds.get(p) in ("scalar", "set") and not is_absent(v, cfg):
                present.add(p)
        for lp, lst in its.items():
            for it in lst:
                for p, v in it.items():
                    if not is_absent(v, cfg):
                        present.add(p)

    for fl, its in zip(truth_raw, truth_items):
        mark_present(fl, its)
    for name in models:
        for tid, fl in model_raw[name].items():
            mark_present(fl, model_items[name][tid])
    global_paths = set(schema_field_paths) | truth_paths | set(sch)
    for name in models:
        global_paths |= model_paths[name]
    global_paths |= item_list_paths_all

    def dropped(p):
        if p in sch or p in present:
            return False
        for q in global_paths:
            if q != p and (q.startswith(p + ".") or q.startswith(p + "[]")):
                return True
        return False

    # ---- per model -----------------------------------------------------------
    report_models = []
    for name in models:
        fields = (schema_field_paths | truth_paths | model_paths[name])
        fields = {f for f in fields if not dropped(f) and not _ignored(f, cfg)}
        item_lists = sorted({p for p in item_list_paths_all
                             if p in sch or any(p in ti for ti in truth_items)
                             or any(p in mi for mi in model_items[name].values())})
        scalar_fields = sorted(f for f in fields if "[]." not in f and kinds.get(f) == "scalar")
        set_fields = sorted(f for f in fields if "[]." not in f and kinds.get(f) == "set")
        item_field_map = {lp: sorted(f for f in fields if f.startswith(lp + "[].")) for lp in item_lists}
        all_item_fields = set()
        for v in item_field_map.values():
            all_item_fields.update(v)

        fcounts = {f: _zero_counts() for f in fields}
        fcer = {f: [] for f in fields}  # (edits, len, cer)
        set_acc = {f: [] for f in set_fields}
        total = _zero_counts()
        doc_counts = []
        valid_flags, exact_flags = [], []
        num_den = num_num = 0
        it_rec = it_t = it_p = 0
        ica, icm = [], []

        md = model_docs[name]
        doc_tallies = []
        for di, (tid, tpay) in enumerate(truth_docs):
            before = ({f: dict(c) for f, c in fcounts.items()}, num_num, num_den)
            dc = _zero_counts()
            pay = md.get(tid)
            if pay is None or pay is INVALID:
                pflat, pitems = {}, {}
                valid = False
            else:
                pflat = model_raw[name][tid]
                pitems = model_items[name][tid]
                valid = True
                if schema is not None:
                    valid = _schema_valid(schema, pay)
            tflat = truth_raw[di]
            titems = truth_items[di]

            def record(f, outcome, tv, pv, typ):
                nonlocal num_den, num_num
                _add(fcounts[f], outcome)
                _add(dc, outcome)
                if not is_absent(tv, cfg):
                    tn = norm_text(tv, cfg)
                    if is_absent(pv, cfg):
                        fcer[f].append((len(tn), len(tn), 1.0))
                    else:
                        lev = levenshtein(tn, norm_text(pv, cfg))
                        c = lev / len(tn) if tn else (0.0 if lev == 0 else 1.0)
                        fcer[f].append((lev, len(tn), c))
                    if typ == "number":
                        num_den += 1
                        if outcome == "exact":
                            num_num += 1

            # scalar fields
            for f in scalar_fields:
                tv = _scalar_value(tflat.get(f))
                pv = _scalar_value(pflat.get(f))
                typ = value_type(f, tv, sch, cfg)
                record(f, outcome_of(tv, pv, typ, cfg), tv, pv, typ)
            # set fields
            for f in set_fields:
                T = _set_value(tflat.get(f), cfg)
                P = _set_value(pflat.get(f), cfg)
                if not T and not P:
                    _add(fcounts[f], "true_negative")
                    _add(dc, "true_negative")
                    continue
                Ts, Ps = set(T), set(P)
                pit = sum(1 for x in P if x in Ts)
                tip = sum(1 for x in T if x in Ps)
                prec = pit / len(P) if P else zd
                rec = tip / len(T) if T else zd
                hits = {}
                for k in cfg["top_k"]:
                    hits[str(k)] = 1.0 if T and any(x in Ts for x in P[:k]) else 0.0
                set_acc[f].append({
                    "precision": prec, "recall": rec, "f1": _f1(prec, rec),
                    "accuracy": (prec + rec) / 2,
                    "legacy_accuracy": (pit + tip) / (2 * max(len(T), len(P))),
                    "hit_at_k": hits,
                })
                for key, n in (("exact", tip), ("spurious", len(P) - pit), ("missed", len(T) - tip)):
                    _add(fcounts[f], key, n)
                    _add(dc, key, n)
            # item lists
            d_rec = d_t = d_p = 0
            for lp in item_lists:
                flds = item_field_map[lp]
                tl = titems.get(lp, [])
                pl = pitems.get(lp, [])
                d_t += len(tl)
                d_p += len(pl)
                pairs = _match_items(tl, pl, flds, sch, cfg, notes, "%s/%s/%s" % (name, tid, lp))
                matched_t = {i for i, j, _ in pairs}
                matched_p = {j for i, j, _ in pairs}
                for i, j, f1 in pairs:
                    if f1 >= cfg["item_f1_threshold"]:
                        d_rec += 1
                    for f in flds:
                        tv = _scalar_value(tl[i].get(f))
                        pv = _scalar_value(pl[j].get(f))
                        typ = value_type(f, tv, sch, cfg)
                        record(f, outcome_of(tv, pv, typ, cfg), tv, pv, typ)
                for i, t in enumerate(tl):
                    if i in matched_t:
                        continue
                    for f in flds:
                        tv = _scalar_value(t.get(f))
                        typ = value_type(f, tv, sch, cfg)
                        record(f, "true_negative" if is_absent(tv, cfg) else "missed", tv, None, typ)
                for j, p in enumerate(pl):
                    if j in matched_p:
                        continue
                    for f in flds:
                        pv = _scalar_value(p.get(f))
                        record(f, "true_negative" if is_absent(pv, cfg) else "spurious", None, pv, None)
            it_rec += d_rec
            it_t += d_t
            it_p += d_p
            ica.append(1.0 if d_rec == d_t else 0.0)
            icm.append(1.0 if d_p == d_t else 0.0)

            for k in total:
                total[k] += dc[k]
            doc_counts.append(dc)
            valid_flags.append(1.0 if valid else 0.0)
            em = (valid and dc["partial"] + dc["incorrect"] + dc["missed"] + dc["spurious"] == 0
                  and d_rec == d_t and d_p == d_t)
            exact_flags.append(1.0 if em else 0.0)
            if tallies is not None:
                doc_tallies.append({
                    "counts": dict(dc),
                    "fields": {f: {k: fcounts[f][k] - before[0][f][k] for k in c}
                               for f, c in fcounts.items()},
                    "numeric": (num_num - before[1], num_den - before[2]),
                    "valid": valid,
                    "items": (d_rec, d_t, d_p),
                })
        if tallies is not None:
            tallies[name] = {"fields": sorted(fields), "has_items": bool(item_lists),
                             "documents": doc_tallies}

        # ---- scores --------------------------------------------------------
        ndocs = len(truth_docs)
        tcount, pcount = _truth_pred(total)
        credit = total["exact"] + 0.5 * total["partial"]
        micro = strict_scores(total, cfg)
        # macro documents
        eds = cfg["empty_document_score"]
        dps, drs, dfs, das = [], [], [], []
        for dc in doc_counts:
            s = strict_scores(dc, cfg)
            t, p = _truth_pred(dc)
            if t == 0 and p == 0:
                s["precision"] = s["recall"] = eds
                s["f1"] = _f1(eds, eds)
            dps.append(s["precision"])
            drs.append(s["recall"])
            dfs.append(s["f1"])
            das.append(s["accuracy"])
        mp = _mean(dps, zd)
        mr = _mean(drs, zd)
        mf = _f1(mp, mr) if cfg["macro_f1"] == "harmonic" else _mean(dfs, zd)
        macro_documents = {"precision": mp, "recall": mr, "f1": mf, "accuracy": _mean(das, zd)}
        # fields table and macro fields
        rows = []
        kept = []
        left_out = 0
        for f in sorted(fields):
            c = fcounts[f]
            s = strict_scores(c, cfg)
            row = {"field": f, "counts": dict(c)}
            row.update(s)
            if f in set_fields or not fcer[f]:
                row["cer"] = None
                row["mean_cer"] = None
            else:
                ed = sum(x[0] for x in fcer[f])
                ln = sum(x[1] for x in fcer[f])
                row["cer"] = ed / ln if ln else (1.0 if ed > 0 else zd)
                row["mean_cer"] = sum(x[2] for x in fcer[f]) / len(fcer[f])
            rows.append(row)
            t, p = _truth_pred(c)
            if t == 0 and p == 0:
                left_out += 1
            else:
                kept.append(s)
        macro_fields = {
            "precision": _mean([s["precision"] for s in kept], zd),
            "recall": _mean([s["recall"] for s in kept], zd),
            "f1": _mean([s["f1"] for s in kept], zd),
            "accuracy": _mean([s["accuracy"] for s in kept], zd),
            "fields_left_out": left_out,
        }
        pp = _safe_div(credit, pcount, zd)
        if "fn" in cfg["incorrect_counts_as"]:
            pr = _safe_div(credit, tcount, zd)
        else:
            pr = _safe_div(credit, total["exact"] + total["partial"] + total["missed"], zd)
        partial = {"precision": pp, "recall": pr, "f1": _f1(pp, pr)}
        all_cer = [x for f in fields if f not in set_fields for x in fcer[f]]
        if all_cer:
            ed = sum(x[0] for x in all_cer)
            ln = sum(x[1] for x in all_cer)
            model_cer = ed / ln if ln else (1.0 if ed > 0 else zd)
        else:
            model_cer = None
        numeric_precision = num_num / num_den if num_den else None
        svr = _mean(valid_flags, zd)
        w = cfg["document_extraction_score"]["weights"]
        wn, wf, ws = w["numeric_precision"], w["field_f1_partial"], w["schema_validity"]
        if numeric_precision is not None:
            des = wn * numeric_precision + wf * partial["f1"] + ws * svr
        elif wf + ws == 0:
            des = zd
        else:
            des = (1 + wn / (wf + ws)) * (wf * partial["f1"] + ws * svr)
        sets = {}
        for f in set_fields:
            vals = set_acc[f]
            ent = {}
            for key in ("precision", "recall", "f1", "accuracy", "legacy_accuracy"):
                ent[key] = _mean([v[key] for v in vals], zd)
            ent["hit_at_k"] = {str(k): _mean([v["hit_at_k"][str(k)] for v in vals], zd)
                               for k in cfg["top_k"]}
            ent["documents"] = len(vals)
            sets[f] = ent
        items = None
        if item_lists:
            ip = _safe_div(it_rec, it_p, zd)
            ir = _safe_div(it_rec, it_t, zd)
            items = {"precision": ip, "recall": ir, "f1": _f1(ip, ir),
                     "item_count_accuracy": _mean(ica, zd),
                     "item_count_match_rate": _mean(icm, zd),
                     "recognised": it_rec, "truth_items": it_t, "pred_items": it_p}
        report_models.append({
            "name": name, "cost": model_cost[name],
            "counts": total, "truth_count": tcount, "pred_count": pcount, "m_total": credit,
            "micro": micro, "macro_documents": macro_documents, "macro_fields": macro_fields,
            "partial": partial,
            "hallucination_rate": _safe_div(total["spurious"], total["spurious"] + total["true_negative"], zd),
            "abstention_rate": _safe_div(total["missed"], tcount, zd),
            "numeric_precision": numeric_precision,
            "field_f1_partial": partial["f1"],
            "schema_validity_rate": svr,
            "exact_match_rate": _mean(exact_flags, zd),
            "document_extraction_score": des,
            "cer": model_cer,
            "fields": rows, "sets": sets, "items": items,
        })
    return {"fieldscope_report": 1, "config": cfg, "warnings": [],
            "documents": len(truth_docs), "models": report_models}


def _mean(xs, zd):
    return sum(xs) / len(xs) if xs else zd


def _nfc_rec(r):
    if isinstance(r, MapRecord):
        out = MapRecord(nfc(dict(r)))
        out.map_id = nfc(r.map_id)
        return out
    return nfc(r)


def _batch_content(r):
    if "custom_id" not in r:
        return None
    try:
        c = r["response"]["body"]["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    return c if isinstance(c, str) else None


def _clean_payload(obj, id_field):
    if obj is None:
        return None
    obj = nfc(obj)  # text read from raw output is normalised like any other text
    return {k: v for k, v in obj.items() if k != id_field and k not in METADATA_KEYS}


def _raw(payload, cfg):
    out = {}
    if isinstance(payload, dict):
        _raw_flatten(payload, "", cfg, out)
    return out


def _file_order(recs, matched, truth_ids):
    """Truth ids of the matched records, in the file order of their records."""
    return list(matched.keys())


def _scalar_value(v):
    """Value at a scalar path: arrays are compared as their JSON text."""
    if isinstance(v, list):
        return None if len(v) == 0 else json_text(v)
    if isinstance(v, dict):
        return None
    return v


def _set_value(v, cfg):
    if is_absent(v, cfg):
        return []
    if not isinstance(v, list):
        v = [v]
    return [norm_text(x, cfg) for x in v]


def _schema_node(path, sch):
    # item-field paths are stored in sch too (walk records them with "[]." prefix)
    ent = sch.get(path)
    return ent[1] if ent else None


def value_type(path, tv, sch, cfg):
    if path in cfg["numeric_string_fields"]:
        return "numstr"
    if path in cfg["date_fields"]:
        return "date"
    node = _schema_node(path, sch)
    if node is not None:
        if node.get("format") in ("date", "date-time"):
            return "date"
        t = _first_type(node)
        if t in ("number", "integer"):
            return "number"
        if t == "boolean":
            return "boolean"
    if isinstance(tv, bool):
        return "boolean"
    if isinstance(tv, (int, float)):
        return "number"
    return "string"


def match_value(tv, pv, typ, cfg):
    """Both present: 'exact' / 'partial' / 'incorrect'."""
    tn, pn = norm_text(tv, cfg), norm_text(pv, cfg)
    if typ == "number":
        a, b = parse_number(tv), parse_number(pv)
        if a is None or b is None:
            return "exact" if tn == pn else "incorrect"
        return "exact" if numbers_equal(a, b, cfg["numeric_tolerance"]) else "incorrect"
    if typ == "numstr":
        if tn and pn and all("0" <= ch <= "9" for ch in tn) and all("0" <= ch <= "9" for ch in pn):
            return "exact" if (tn.lstrip("0") or "0") == (pn.lstrip("0") or "0") else "incorrect"
        return "exact" if tn == pn else "incorrect"
    if typ == "date":
        a = parse_date(tv if isinstance(tv, str) else json_text(tv), cfg["date_order"])
        b = parse_date(pv if isinstance(pv, str) else json_text(pv), cfg["date_order"])
        if a is None or b is None:
            return "exact" if tn == pn else "incorrect"
        return "exact" if a == b else "incorrect"
    if typ == "boolean":
        a, b = parse_bool(tv), parse_bool(pv)
        if a is None or b is None:
            return "exact" if tn == pn else "incorrect"
        return "exact" if a == b else "incorrect"
    if tn == pn:
        return "exact"
    method = cfg["string_match"]["method"]
    if method == "exact":
        return "incorrect"
    if method == "cer":
        lev = levenshtein(tn, pn)
        c = lev / len(tn) if tn else (0.0 if lev == 0 else 1.0)
        return "exact" if c <= cfg["string_match"]["cer_threshold"] else "incorrect"
    sim = similarity(tn, pn)
    th = cfg["partial_matching"]["string"]
    if sim >= th["exact_threshold"]:
        return "exact"
    if sim >= th["partial_threshold"]:
        return "partial"
    return "incorrect"


def outcome_of(tv, pv, typ, cfg):
    ta, pa = is_absent(tv, cfg), is_absent(pv, cfg)
    if ta and pa:
        return "true_negative"
    if pa:
        return "missed"
    if ta:
        return "spurious"
    return match_value(tv, pv, typ, cfg)


def _item_f1(t, p, flds, sch, cfg):
    zd = cfg["zero_division"]
    tp = [f for f in flds if not is_absent(_scalar_value(t.get(f)), cfg)]
    pp = [f for f in flds if not is_absent(_scalar_value(p.get(f)), cfg)]
    ps = set(pp)
    correct = 0
    for f in tp:
        if f in ps:
            tv, pv = _scalar_value(t.get(f)), _scalar_value(p.get(f))
            if match_value(tv, pv, value_type(f, tv, sch, cfg), cfg) == "exact":
                correct += 1
    prec = correct / len(pp) if pp else zd
    rec = correct / len(tp) if tp else zd
    return _f1(prec, rec)


def _item_f1_exact(t, p, flds, sch, cfg):
    """Item F1 (SPEC 3.4) as a Fraction, and the partial credit of SPEC 7.3:
    over the fields present in t, 1 per exact outcome, the similarity for a
    partial or incorrect outcome of a field compared as a string."""
    from fractions import Fraction
    zd = Fraction(cfg["zero_division"])
    tp = [f for f in flds if not is_absent(_scalar_value(t.get(f)), cfg)]
    pp = [f for f in flds if not is_absent(_scalar_value(p.get(f)), cfg)]
    ps = set(pp)
    correct, credit = 0, Fraction(0)
    for f in tp:
        if f in ps:
            tv, pv = _scalar_value(t.get(f)), _scalar_value(p.get(f))
            typ = value_type(f, tv, sch, cfg)
            o = match_value(tv, pv, typ, cfg)
            if o == "exact":
                correct += 1
                credit += 1
            elif typ == "string":
                tn, pn = norm_text(tv, cfg), norm_text(pv, cfg)
                longest = max(len(tn), len(pn))
                if longest:
                    credit += Fraction(longest - levenshtein(tn, pn), longest)
    if not tp and not pp:
        f1 = zd
    elif not tp or not pp:
        f1 = Fraction(0)
    else:
        f1 = Fraction(2 * correct, len(tp) + len(pp))
    return f1, credit


def _match_items(tl, pl, flds, sch, cfg, notes, where):
    n, m = len(tl), len(pl)
    if n == 0 or m == 0:
        return []
    if _OPTS["item_tie_break"] == "spec73" and not _OPTS.get("forced_pairs"):
        f1 = [[_item_f1(tl[i], pl[j], flds, sch, cfg) for j in range(m)] for i in range(n)]
        ex = [[_item_f1_exact(tl[i], pl[j], flds, sch, cfg) for j in range(m)] for i in range(n)]
        best_key, chosen = None, []
        for assign in _partial_injections(n, m):
            pairs = [(i, j) for i, j in enumerate(assign) if j is not None and f1[i][j] > 0]
            if len(pairs) != sum(1 for j in assign if j is not None):
                continue
            tot_f1 = sum((ex[i][j][0] for i, j in pairs), 0)
            tot_cr = sum((ex[i][j][1] for i, j in pairs), 0)
            seq = [m + 1 if j is None else j for j in assign]
            key = (-tot_f1, -tot_cr, seq)
            if best_key is None or key < best_key:
                best_key, chosen = key, pairs
        return [(i, j, f1[i][j]) for i, j in chosen]
    f1 = [[_item_f1(tl[i], pl[j], flds, sch, cfg) for j in range(m)] for i in range(n)]
    mult = min(n, m) + 1
    trusted = (_OPTS.get("forced_pairs") or {}).get(where) if _OPTS.get("trust_forced_pairs") else None
    if trusted is not None:
        return [(i, j, f1[i][j]) for i, j in sorted(trusted)]

    def weight(i, j):
        if f1[i][j] <= 0:
            return 0
        return round_half_away(f1[i][j] * 1e9) * mult + (1 if i == j else 0)

    best_w = -1
    best = []
    # enumerate all injective partial maps truth -> pred (None = unmatched)
    for assign in _partial_injections(n, m):
        w = sum(weight(i, j) for i, j in enumerate(assign) if j is not None)
        if w > best_w:
            best_w, best = w, [assign]
        elif w == best_w:
            best.append(assign)

    def pairs_of(assign):
        return [(i, j, f1[i][j]) for i, j in enumerate(assign) if j is not None and f1[i][j] > 0]

    forced = (_OPTS.get("forced_pairs") or {}).get(where)
    if forced is not None:
        fw = sum(weight(i, j) for i, j in forced)
        if any(f1[i][j] <= 0 for i, j in forced):
            notes.append("imposed matching pairs an item F1 = 0 at " + where)
        if fw != best_w:
            notes.append("imposed matching is not maximal at %s: weight %d < %d" % (where, fw, best_w))
        return [(i, j, f1[i][j]) for i, j in sorted(forced)]

    # canonical choice among equal optima ("ties keep the original order"): the
    # optimum whose list of matched (truth, prediction) pairs, in truth order, is
    # lexicographically smallest
    if _OPTS["item_tie_break"] == "displacement":
        key = lambda ps: (sum(abs(i - j) for i, j, _ in ps), [(i, j) for i, j, _ in ps])  # noqa: E731
    else:
        key = lambda ps: [(i, j) for i, j, _ in ps]  # noqa: E731
    chosen = min((pairs_of(a) for a in best), key=key)
    if len(best) > 1:
        sigs = set()
        for a in best:
            sigs.add(_pairs_signature(pairs_of(a), tl, pl, flds, sch, cfg))
        if len(sigs) > 1:
            notes.append("item-matching tie changes outcomes at " + where)
    return chosen


def _pairs_signature(pairs, tl, pl, flds, sch, cfg):
    sig = []
    for i, j, f in sorted(pairs):
        rec = f >= cfg["item_f1_threshold"]
        outs = []
        for fld in flds:
            tv, pv = _scalar_value(tl[i].get(fld)), _scalar_value(pl[j].get(fld))
            o = outcome_of(tv, pv, value_type(fld, tv, sch, cfg), cfg)
            if not is_absent(tv, cfg) and not is_absent(pv, cfg):
                o += ":%d" % levenshtein(norm_text(tv, cfg), norm_text(pv, cfg))
            outs.append((fld, o))
        sig.append((rec, tuple(outs)))
    matched_t = {i for i, _, _ in pairs}
    matched_p = {j for _, j, _ in pairs}
    # unmatched items contribute by content; represent as the sorted outcome multiset
    flat = [x for s in sig for x in [(s[0],) + tuple(s[1])]]
    um_t = sorted(json.dumps(tl[i], sort_keys=True, default=str) for i in range(len(tl)) if i not in matched_t)
    um_p = sorted(json.dumps(pl[j], sort_keys=True, default=str) for j in range(len(pl)) if j not in matched_p)
    return (tuple(sorted(map(repr, flat))), tuple(um_t), tuple(um_p))


def _partial_injections(n, m):
    def rec(i, used):
        if i == n:
            yield []
            return
        for j in range(m):
            if j not in used:
                used.add(j)
                for rest in rec(i + 1, used):
                    yield [j] + rest
                used.discard(j)
        for rest in rec(i + 1, used):
            yield [None] + rest
    return rec(0, set())


_VALIDATORS = {}


def _schema_valid(schema, payload):
    import jsonschema
    key = json.dumps(schema, sort_keys=True)
    v = _VALIDATORS.get(key)
    if v is None:
        v = jsonschema.Draft7Validator(schema)  # no format_checker: format is an annotation
        _VALIDATORS[key] = v
    return v.is_valid(payload)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="reference fieldscope eval (JSON report)")
    ap.add_argument("--truth", required=True)
    ap.add_argument("--pred", action="append", required=True)
    ap.add_argument("--schema")
    ap.add_argument("--config")
    ap.add_argument("--preset")
    ap.add_argument("--cost", action="append", default=[])
    a = ap.parse_args()
    preds = {}
    for p in a.pred:
        if "=" in p:
            nm, path = p.split("=", 1)
        else:
            import os
            path = p
            nm = os.path.splitext(os.path.basename(p))[0]
        preds[nm] = load_records(path)
    sch = json.load(open(a.schema, encoding="utf-8-sig")) if a.schema else None
    conf = json.load(open(a.config, encoding="utf-8-sig")) if a.config else None
    costs = {}
    for c in a.cost:
        nm, v = c.split("=", 1)
        costs[nm] = float(v)
    print(json.dumps(evaluate(load_records(a.truth), preds, sch, conf, costs, a.preset),
                     ensure_ascii=False, indent=2))
