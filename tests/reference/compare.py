#!/usr/bin/env python3
"""Differential test: the Rust `fieldscope eval` CLI against the independent
Python reference (fieldscope_ref.py), on randomly generated datasets.

    python3 tests/reference/compare.py [--n 300] [--seed 1]
    python3 tests/reference/compare.py --replay tests/reference/failures/NAME

First the directed cases run (SPEC section 6's worked examples, whose stated
numbers are checked on both sides, plus hand-made minimal cases), then --n
random datasets.  Every number of the JSON report is compared (tolerance
1e-9), and the counts, field names, sets keys, items null-ness, cost and the
effective config.

A disagreement is classified:
  READING:<option>=<value>   the reference under that alternative reading of a
                             point SPEC.md leaves open agrees exactly
                             (fieldscope_ref.DEFAULT_OPTIONS lists them);
  ITEM-TIE:...               imposing the item matching the Rust tool reports
                             (--details) makes the reports agree, and that
                             matching has the maximum total weight too;
  anything else              the first differing key (a real disagreement).
For every class the smallest failing dataset found (after greedy shrinking) is
written to tests/reference/failures/NAME/ with both reports, the differing
keys and a `replay.sh`.  Exit status 0 only when everything agrees.
"""

import argparse
import copy
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BIN = os.path.join(ROOT, "target", "debug", "fieldscope")
sys.path.insert(0, HERE)

try:
    import jsonschema  # noqa: F401
except ImportError:  # pragma: no cover
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "jsonschema"])

import fieldscope_ref as R  # noqa: E402

TOL = 1e-9

# --------------------------------------------------------------------------
# vocabulary

VENDORS = ["Müller GmbH", "Acme Corp", "Société Générale", "Ørsted A/S", "日本電気株式会社",
           "Café 😀 Bar", "ΟΔΥΣΣΕΑΣ ΑΕ", "Straße & Söhne KG", "Zoë's Crème Brûlée",
           "  Acme   Corp ", "İstanbul Ticaret", "Ñandú 𝔘𝔫𝔦 Ltd"]
CITIES = ["Zürich", "São Paulo", "Kraków", "München", "Reykjavík", "Paris", "Łódź"]
DESCS = ["Laptop stand", "USB-C hub", "Desk lamp", "Ergonomic chair", "Monitor arm 27in",
         "Coffee beans 1kg", "Paper A4 500 sheets", "HDMI cable 2m", "Crème fraîche 200g",
         "Wireless keyboard"]
NOTES = ["Payment due within thirty days of receipt",
         "Delivered to the loading dock at the rear entrance",
         "Please reference the purchase order number",
         "Goods remain our property until paid in full",
         "Réclamations sous huit jours après réception"]
CODES = ["8471", "8528", "9403", "0001", "A12", "B7", "X-99", "Äö1", "8471 ", "a12"]
ABSENT_SPELLINGS = ["NOT_FOUND", "not_found", " N/A ", "n/a", "", "  ", None, "MISSING", "[]",
                    "NOT FOUND", "none", "-"]
MISSING = object()  # sentinel: key not written


def nfd(s):
    return unicodedata.normalize("NFD", s)


# --------------------------------------------------------------------------
# value generators

def gen_date(rng):
    return (rng.randint(2019, 2026), rng.randint(1, 12), rng.randint(1, 28))


def fmt_date(rng, ymd, style=None):
    y, m, d = ymd
    style = style or rng.choice(["iso", "iso", "iso", "dot", "slash_dmy", "slash_mdy"])
    if style == "iso":
        return "%04d-%02d-%02d" % (y, m, d)
    if style == "dot":
        return "%d.%d.%04d" % (d, m, y) if rng.random() < 0.5 else "%02d.%02d.%04d" % (d, m, y)
    if style == "slash_dmy":
        return "%02d/%02d/%04d" % (d, m, y)
    if style == "slash_mdy":
        return "%d/%d/%04d" % (m, d, y)
    raise ValueError(style)


def perturb_date(rng, truth_text, ymd):
    y, m, d = ymd
    opts = [
        lambda: truth_text,
        lambda: "%04d-%02d-%02dT00:00:00" % (y, m, d),
        lambda: "%04d-%02d-%02dT10:30:00Z" % (y, m, d),
        lambda: "%04d-%02d-%02d 10:30" % (y, m, d),
        lambda: "%04d-%02d-%02dt23:59:59.123+01:00" % (y, m, d),
        lambda: "%04d-%02d-%02dT08:00:00-0500" % (y, m, d),
        lambda: "%d.%d.%04d" % (d, m, y),
        lambda: "%02d/%02d/%04d" % (d, m, y),
        lambda: "%02d/%02d/%04d" % (m, d, y),
        lambda: "%04d-%d-%d" % (y, m, d),            # not ISO (no padding)
        lambda: "%04d-02-30" % y,                     # invalid calendar date
        lambda: "%04d-%02d-%02d" % (y, m, min(d + 1, 28)),  # wrong day
        lambda: "January %d, %04d" % (d, y),          # month name: unparseable
        lambda: "%02d/%02d/%02d" % (d, m, y % 100),    # two-digit year
        lambda: " %04d-%02d-%02d " % (y, m, d),
        lambda: "%04d%02d%02d" % (y, m, d),
    ]
    return rng.choice(opts)()


def gen_amount(rng):
    r = rng.random()
    if r < 0.4:
        return rng.randint(0, 20000)
    if r < 0.8:
        return round(rng.randint(0, 2000000) / 100.0, 2)
    return rng.choice([1500.0, 0.5, 12.5, 1234567.89, 99.99, 1000000, 0.001])


def fmt_money(x, dec=",", thou=".", ndec=2, sym="", sym_after=False, space_thou=False):
    s = ("%." + str(ndec) + "f") % abs(x)
    ip, _, fp = s.partition(".")
    groups = []
    while len(ip) > 3:
        groups.insert(0, ip[-3:])
        ip = ip[:-3]
    groups.insert(0, ip)
    sep = "\u202f" if space_thou else thou
    body = sep.join(groups) + ((dec + fp) if ndec else "")
    if x < 0:
        body = "-" + body
    if sym:
        body = (body + " " + sym) if sym_after else (sym + body)
    return body


def perturb_number(rng, x, tol_hint):
    opts = [
        lambda: x,
        lambda: x,
        lambda: float(x) if isinstance(x, int) else x,
        lambda: str(x),
        lambda: fmt_money(x, dec=".", thou=",", sym="$"),
        lambda: fmt_money(x, dec=",", thou=".", sym="€", sym_after=True),
        lambda: fmt_money(x, dec=",", thou=".", space_thou=True),
        lambda: fmt_money(x, dec=".", thou=",", ndec=0),
        lambda: fmt_money(x, dec=",", thou=".", ndec=1),
        lambda: "%s" % fmt_money(x, dec=".", thou=",", ndec=3),
        lambda: "£ %s" % fmt_money(x, dec=".", thou=" "),
        lambda: "EUR %s" % x,
        lambda: round(x + 0.004, 6),
        lambda: round(x + 0.01, 6),
        lambda: round(x + 0.5, 6),
        lambda: round(x - 1, 6),
        lambda: x + 4e-7,
        lambda: x + 6e-7,
        lambda: round(x + tol_hint, 6),
        lambda: "1,5",
        lambda: "12,50",
        lambda: "1.500.000",
        lambda: "1,500,000.5",
        lambda: "1.2.3,4",
        lambda: "abc",
        lambda: "+%s" % x,
        lambda: "%se2" % x,
        lambda: True,
        lambda: -x,
        lambda: [x],
        lambda: rng.choice([1e-5, 1.5e-05, 1e16, 2.5e-10, 1.2345e16, 1e20, 0.1 + 0.2, -0.0, 1e15]),
        lambda: rng.choice(["1e3", "1E-2", ".5", "5.", "-.5e1", "1 000 000", "１２３", "0x10", "1_000",
                            "12,345,678", "12,34,567", "1,23", "1,234", "¥ 1.234.567", "₹12,34,567.50",
                            "1.234,5", "1,234.5.6", "Infinity", "NaN", "- 5", "5-"]),
    ]
    return rng.choice(opts)()


def typo(rng, s, target_sim):
    """Apply about (1 - target_sim) * len substitutions/insertions/deletions."""
    if not s:
        return "x"
    L = len(s)
    k = max(1, int(round((1 - target_sim) * L)) + rng.choice([-1, 0, 0, 1]))
    chars = list(s)
    for _ in range(k):
        op = rng.random()
        pos = rng.randrange(len(chars)) if chars else 0
        if op < 0.6 and chars:
            c = rng.choice("qzxjkéß😀")
            chars[pos] = c if chars[pos] != c else "w"
        elif op < 0.8:
            chars.insert(pos, rng.choice("abcdeü"))
        elif chars:
            del chars[pos]
    return "".join(chars)


def perturb_string(rng, s):
    r = rng.random()
    if r < 0.35:
        return s
    if r < 0.43:
        return rng.choice([s.upper(), s.lower(), "  " + s.replace(" ", "   ") + "\t", s.replace(" ", "\u00a0")])
    if r < 0.48:
        return nfd(s)
    if r < 0.60:
        return typo(rng, s, 0.85)
    if r < 0.68:
        return typo(rng, s, 0.40)
    if r < 0.73:
        return rng.choice(VENDORS + DESCS + NOTES)
    if r < 0.88:
        return absent_value(rng)
    if r < 0.91:
        return s + " 😀"
    if r < 0.94:
        return 123
    if r < 0.96:
        return [s]
    return s[: len(s) // 2]


def absent_value(rng):
    v = rng.choice(ABSENT_SPELLINGS)
    if v == "MISSING":
        return MISSING
    if v == "[]":
        return []
    return v


# --------------------------------------------------------------------------
# dataset generation

FIELD_POOL = ["invoice_number", "date", "due", "total", "currency", "paid", "vendor",
              "po_number", "codes", "items", "notes"]


def gen_item(rng, with_sku, numstr):
    it = {"description": rng.choice(DESCS), "quantity": rng.randint(1, 5), "amount": gen_amount(rng)}
    if with_sku:
        it["sku"] = ("%06d" % rng.randint(0, 999)) if numstr else rng.choice(["SKU-1", "SKU-22", "K9"])
    if rng.random() < 0.15:
        it["unit"] = rng.choice(["pcs", "kg", None, "NOT_FOUND"])
    if rng.random() < 0.1:
        it["product"] = {"name": rng.choice(DESCS), "code": rng.choice(CODES)}
    if rng.random() < 0.08:
        it["tags"] = rng.sample(["a", "b", "c"], rng.randint(0, 2))
    return it


def gen_truth_record(rng, fields, st):
    rec = {}
    for f in fields:
        if f == "invoice_number":
            rec[f] = ("%06d" % rng.randint(0, 99999)) if st["numstr_inv"] else "INV-%04d" % rng.randint(1, 9999)
        elif f == "date":
            ymd = gen_date(rng)
            rec[f] = fmt_date(rng, ymd, "iso" if rng.random() < 0.7 else None)
        elif f == "due":
            rec[f] = fmt_date(rng, gen_date(rng))
        elif f == "total":
            x = gen_amount(rng)
            rec[f] = x if rng.random() < 0.8 else fmt_money(x, dec=",", thou=".", sym="€", sym_after=True)
        elif f == "currency":
            rec[f] = rng.choice(["EUR", "USD", "CHF"])
        elif f == "paid":
            rec[f] = rng.choice([True, False, True, "true"])
        elif f == "vendor":
            r = rng.random()
            if r < 0.12:
                rec[f] = None
            else:
                v = {"name": rng.choice(VENDORS)}
                if rng.random() < 0.7:
                    v["vat_id"] = rng.choice(["DE123456789", "FR987654321", "NOT_FOUND", None])
                if rng.random() < 0.5:
                    v["address"] = {"city": rng.choice(CITIES), "zip": rng.choice(["8001", "00-950", "NOT_FOUND"])}
                rec[f] = v
        elif f == "po_number":
            rec[f] = rng.choice(["PO-77", "NOT_FOUND", "N/A", None, "", "PO-1234"])
        elif f == "codes":
            r = rng.random()
            if r < 0.15:
                rec[f] = []
            elif r < 0.2:
                rec[f] = rng.choice(CODES)
            else:
                rec[f] = [rng.choice(CODES) for _ in range(rng.randint(1, 4))]
        elif f == "items":
            n = rng.randint(0, 5)
            rec[f] = [gen_item(rng, st["sku"], st["numstr_sku"]) for _ in range(n)]
        elif f == "notes":
            rec[f] = rng.choice(NOTES + ["NOT_FOUND", None])
        if st["nfd_truth"] and isinstance(rec.get(f), str):
            rec[f] = nfd(rec[f])
    if rng.random() < 0.08:
        rec.pop(rng.choice(list(rec.keys())), None) if rec else None
    return rec


def perturb_value(rng, f, v, st):
    """A prediction for truth value v at top-level field f (MISSING = leave out)."""
    if v is MISSING or R.is_absent(v, {"absent_values": ["NOT_FOUND", "N/A", ""]}) and not isinstance(v, dict):
        if rng.random() < 0.65:
            return absent_value(rng)
        v = None
        # spurious value of the right flavour
        if f in ("total",):
            return gen_amount(rng)
        if f == "codes":
            return [rng.choice(CODES)]
        if f == "items":
            return [gen_item(rng, st["sku"], st["numstr_sku"])]
        if f == "vendor":
            return {"name": rng.choice(VENDORS)}
        if f == "paid":
            return rng.choice([True, False])
        return rng.choice(VENDORS + ["PO-77", "x"])
    if f in ("date", "due"):
        ymd = R.parse_date(v, "dmy") or R.parse_date(v, "mdy")
        if ymd and rng.random() < 0.85:
            return perturb_date(rng, v, ymd)
        return perturb_string(rng, v)
    if f == "total" or (isinstance(v, (int, float)) and not isinstance(v, bool)):
        x = v if isinstance(v, (int, float)) else (R.parse_number(v) or 0.0)
        if rng.random() < 0.1:
            return absent_value(rng)
        return perturb_number(rng, x, st["tol"])
    if isinstance(v, bool) or f == "paid":
        return rng.choice([v, v, not v if isinstance(v, bool) else v, "TRUE", " false ", "yes",
                           absent_value(rng), 1])
    if f == "vendor" and isinstance(v, dict):
        r = rng.random()
        if r < 0.05:
            return v.get("name", "Acme")  # type confusion: string for an object
        if r < 0.1:
            return absent_value(rng)
        out = {}
        for k, x in v.items():
            if isinstance(x, dict):
                y = {k2: perturb_value(rng, "s", x2, st) for k2, x2 in x.items()}
                out[k] = {k2: x2 for k2, x2 in y.items() if x2 is not MISSING}
            else:
                y = perturb_value(rng, "s", x, st)
                if y is not MISSING:
                    out[k] = y
        if rng.random() < 0.1:
            out["phone"] = "+41 44 000 00 00"
        return out
    if f == "codes":
        T = v if isinstance(v, list) else [v]
        r = rng.random()
        if r < 0.25:
            return list(T)
        if r < 0.35:
            return list(reversed(T))
        if r < 0.5:
            return T[: max(0, len(T) - 1)]
        if r < 0.65:
            return T + [rng.choice(CODES) for _ in range(rng.randint(1, 4))]
        if r < 0.72:
            return T + T[:1]
        if r < 0.8:
            return [x.upper() if isinstance(x, str) else x for x in T]
        if r < 0.85:
            return T[0] if T else "8471"
        if r < 0.92:
            return absent_value(rng)
        return [rng.choice(CODES) for _ in range(rng.randint(1, 5))]
    if f == "items":
        return perturb_items(rng, v, st)
    if isinstance(v, str):
        if st["numstr_inv"] and f == "invoice_number":
            return rng.choice([v, v.lstrip("0") or "0", int(v), "00" + v, v + "1", "A" + v, absent_value(rng)])
        return perturb_string(rng, v)
    return v


def perturb_items(rng, items, st):
    if not isinstance(items, list):
        return items
    out = []
    for it in items:
        r = rng.random()
        if r < 0.12:
            continue  # dropped
        if not isinstance(it, dict):
            out.append(it)
            continue
        p = {}
        for k, x in it.items():
            if k in ("amount", "quantity"):
                y = perturb_number(rng, x, st["tol"]) if rng.random() < 0.4 else x
            elif k == "sku" and st["numstr_sku"]:
                y = rng.choice([x, x.lstrip("0"), int(x), "X" + x]) if rng.random() < 0.5 else x
            elif isinstance(x, dict):
                y = {k2: (perturb_string(rng, x2) if isinstance(x2, str) and rng.random() < 0.5 else x2)
                     for k2, x2 in x.items()}
                y = {k2: x2 for k2, x2 in y.items() if x2 is not MISSING}
            elif isinstance(x, str):
                y = perturb_string(rng, x) if rng.random() < 0.6 else x
            else:
                y = x
            if y is not MISSING:
                p[k] = y
        out.append(p)
    if rng.random() < 0.4:
        rng.shuffle(out)
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        out.insert(rng.randint(0, len(out)), gen_item(rng, st["sku"], st["numstr_sku"]))
    if rng.random() < 0.04:
        out.append("n/a")
    if rng.random() < 0.05:
        out.append({})
    return out


def fence(rng, payload, ascii_):
    body = json.dumps(payload, ensure_ascii=ascii_, indent=rng.choice([None, 2]))
    r = rng.random()
    if r < 0.45:
        return "```json\n" + body + "\n```"
    if r < 0.6:
        return "```\n" + body + "\n```\nLet me know if you need more."
    if r < 0.75:
        return "Here is the extraction: " + body + " -- note: prices in {EUR}."
    if r < 0.85:
        return body
    if r < 0.9:
        return rng.choice(["Sorry, I cannot read this document.", "{\"total\": 12,", "```json\n{oops}\n```",
                           "[1, 2, 3]", "{\"a\": \"}\"} trailing {\"b\": 1}", "42", "\"just a string\"",
                           "null", "{}", "```json\n[{\"total\": 1}]\n```"])
    return rng.choice([
        "```JSON\n" + body + "```",                      # closing fence on the same line
        "```json\n" + body,                              # fence never closed
        "Use {braces} like this: " + body,                # a non-JSON {...} block comes first
        "```\nnot json\n```\n```json\n" + body + "\n```",  # the first fence is not JSON
        "  \n" + body + "\n\n",                          # surrounding whitespace
        "Result:\n```json\n" + body + "\n```\nAlt: {\"total\": 0}",
        body.replace("{", "{ ", 1) + " {\"x\": 1}",       # two objects back to back
    ])


def gen_config(rng, st):
    c = {}
    if rng.random() < 0.6:
        c["preset"] = rng.choice(["standard", "exact", "not-found", "invoice-cer"])
    if rng.random() < 0.5:
        c["zero_division"] = rng.choice([0, 1])
    if rng.random() < 0.3:
        c["incorrect_counts_as"] = rng.choice([["fp"], ["fp", "fn"]])
    if rng.random() < 0.4:
        c["macro_f1"] = rng.choice(["harmonic", "mean"])
    if rng.random() < 0.3 or st["tol"]:
        c["numeric_tolerance"] = st["tol"]
    if rng.random() < 0.25:
        c["case_sensitive"] = True
    if rng.random() < 0.3:
        c["absent_values"] = rng.choice([["NOT_FOUND", "N/A", "", "none", "-"], ["NOT_FOUND"],
                                         [" not_found ", "n/a"], []])
    if rng.random() < 0.3:
        c["ignored_fields"] = rng.sample(["vendor.address", "notes", "items[].sku", "vendor", "codes",
                                          "items", "items[].product", "po_number"], rng.randint(1, 2))
    nsf = []
    if st["numstr_inv"]:
        nsf.append("invoice_number")
    if st["numstr_sku"]:
        nsf.append("items[].sku")
    if nsf:
        c["numeric_string_fields"] = nsf
    if st["date_fields"]:
        c["date_fields"] = st["date_fields"]
    if rng.random() < 0.4:
        c["date_order"] = rng.choice(["dmy", "mdy"])
    if rng.random() < 0.3:
        c["item_f1_threshold"] = rng.choice([0.85, 0.5, 1.0, 0.6666666666666666, 0])
    if rng.random() < 0.3:
        c["top_k"] = rng.choice([[1, 3, 5], [2], [1, 10], [3, 1], []])
    if rng.random() < 0.2:
        c["string_match"] = rng.choice([{"cer_threshold": 0.25}, {"method": "cer"}, {"method": "similarity"},
                                        {"method": "exact", "cer_threshold": 0.1}])
    if rng.random() < 0.2:
        c["partial_matching"] = {"string": rng.choice([{"exact_threshold": 0.9, "partial_threshold": 0.5},
                                                       {"partial_threshold": 0.2}, {"exact_threshold": 0.8}])}
    if rng.random() < 0.1:
        c["empty_document_score"] = rng.choice([0, 1])
    if rng.random() < 0.15:
        c["document_extraction_score"] = {"weights": rng.choice([
            {"numeric_precision": 0.0, "field_f1_partial": 0.5, "schema_validity": 0.5},
            {"numeric_precision": 0.2, "field_f1_partial": 0.8, "schema_validity": 0.0},
            {"numeric_precision": 1.0, "field_f1_partial": 0.0, "schema_validity": 0.0},
            {"field_f1_partial": 0.1}])}
    if st["id_field"]:
        c["id_field"] = st["id_field"]
    return c


def gen_schema(rng, fields, st):
    P = {}
    for f in fields:
        if rng.random() < 0.15:
            continue  # partial schema: the data decides this path's kind
        if f == "invoice_number":
            P[f] = {"type": "string"}
        elif f == "date":
            P[f] = {"type": "string", "format": rng.choice(["date", "date", "date-time"])}
        elif f == "due":
            P[f] = {"type": ["string", "null"]}
        elif f == "total":
            P[f] = {"type": rng.choice(["number", ["number", "null"], ["null", "number"], "integer"])}
        elif f == "currency":
            P[f] = {"type": "string", "enum": ["EUR", "USD", "CHF"]}
        elif f == "paid":
            P[f] = {"type": "boolean"}
        elif f == "vendor":
            P[f] = {"type": rng.choice(["object", ["object", "null"]]), "properties": {
                "name": {"type": "string"}, "vat_id": {"type": ["string", "null"]},
                "address": {"type": "object", "properties": {"city": {"type": "string"},
                                                             "zip": {"type": "string"}}}}}
        elif f == "po_number":
            P[f] = {"type": ["string", "null"]}
        elif f == "codes":
            P[f] = {"type": "array", "items": {"type": "string"}}
        elif f == "items":
            ip = {"description": {"type": "string"}, "quantity": {"type": "number"},
                  "amount": {"type": "number"}}
            if st["sku"]:
                ip["sku"] = {"type": "string"}
            if rng.random() < 0.3:
                ip["vat_rate"] = {"type": "number"}
            P[f] = {"type": "array", "items": {"type": "object", "properties": ip,
                                               "required": ["description"]}}
        elif f == "notes":
            P[f] = {"type": ["string", "null"]}
    if rng.random() < 0.25:
        P["due_date"] = {"type": "string", "format": "date"}
    s = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": P}
    if rng.random() < 0.4:
        req = [f for f in P if rng.random() < 0.4]
        if req:
            s["required"] = req
    if rng.random() < 0.25:
        s["additionalProperties"] = False
        for k in ("id", "filename", "doc_id", "doc_key", "cost", "latency", "usage", "model"):
            s["properties"].setdefault(k, {})
    return s


def generate(rng, idx):
    st = {
        "numstr_inv": rng.random() < 0.25,
        "numstr_sku": rng.random() < 0.2,
        "sku": rng.random() < 0.5,
        "tol": rng.choice([0, 0, 0, 0.01, 0.5, 1]),
        "nfd_truth": rng.random() < 0.1,
        "id_field": None,
        "date_fields": [],
    }
    if st["numstr_sku"]:
        st["sku"] = True
    fields = rng.sample(FIELD_POOL, rng.randint(2, 7))
    if rng.random() < 0.3 and "due" in fields:
        st["date_fields"] = ["due"]
    if rng.random() < 0.04:
        fields.append("text")  # a truth field named like a raw-output key
    id_mode = rng.choices(["id", "numeric", "ext_pred", "ext_truth", "positional", "id_field",
                           "filename", "fallback"],
                          [50, 8, 7, 5, 8, 5, 5, 4])[0]
    if id_mode == "id_field":
        st["id_field"] = "doc_key"
    ndocs = rng.randint(1, 8)
    truth = []
    ids = []
    for k in range(ndocs):
        rec = gen_truth_record(rng, [f for f in fields if f != "text"], st)
        if "text" in fields:
            rec["text"] = rng.choice(NOTES)
        if id_mode in ("id", "ext_pred"):
            i = "doc_%03d" % (k + 1)
            key = "id"
        elif id_mode == "numeric":
            i = k + 1
            key = "id"
        elif id_mode == "ext_truth":
            i = "scan_%02d.pdf" % (k + 1)
            key = "filename"
        elif id_mode == "filename":
            i = "file-%d.png" % (k + 1)
            key = "filename"
        elif id_mode == "id_field":
            i = "K%d" % (k + 1)
            key = "doc_key"
        elif id_mode == "fallback":
            i = "d%d" % (k + 1)
            key = "doc_id"
        else:
            i, key = None, None
        if key:
            rec = dict([(key, i)] + list(rec.items()))
        ids.append((key, i))
        truth.append(rec)
    if rng.random() < 0.04 and len(truth) > 1 and id_mode != "positional":
        dup = copy.deepcopy(truth[0])
        truth.insert(rng.randint(1, len(truth)), dup)  # duplicate truth id (first wins)
        ids = [(None, None)] * len(truth)  # ids no longer used below except pairing
    ascii_ = rng.random() < 0.15

    models = []
    nmodels = rng.randint(1, 3)
    batch_model = rng.random() < 0.08
    for mi in range(nmodels):
        name = rng.choice(["gpt", "claude", "llama", "mistral", "qwen", "gemini"]) + "_%d" % mi
        recs = []
        use_cost = rng.random() < 0.4
        for k, trec in enumerate(truth):
            if rng.random() < 0.1:
                continue  # missing prediction record
            pay = {}
            for f, v in trec.items():
                if f in ("id", "filename", "doc_key", "doc_id") and f == _idkey(trec, id_mode):
                    continue
                y = perturb_value(rng, f, v, st)
                if y is not MISSING:
                    pay[f] = y
            for f in fields:
                if f not in trec and f != "text" and rng.random() < 0.25:
                    y = perturb_value(rng, f, MISSING, st)
                    if y is not MISSING:
                        pay[f] = y
            if rng.random() < 0.1:
                pay["extra_field"] = rng.choice(["x", "NOT_FOUND", 5, None])
            if rng.random() < 0.03:
                pay["vendor"] = None
            key, tid = _idkey(trec, id_mode), trec.get(_idkey(trec, id_mode)) if _idkey(trec, id_mode) else None
            if id_mode == "ext_pred":
                tid = tid + rng.choice([".json", ".jpg", ".PDF"])
            elif id_mode == "ext_truth":
                tid = tid[: -len(".pdf")]
            elif id_mode == "numeric":
                tid = rng.choice([tid, str(tid), " %d " % tid])
            elif id_mode == "fallback":
                key = rng.choice(["doc_id", "id"])
            rec = _make_pred_record(rng, key, tid, pay, batch_model and mi == 0, ascii_)
            if use_cost and rng.random() < 0.8:
                rec["cost"] = rng.choice([0.001, 0.0025, 1, 0.5])
            if rng.random() < 0.1:
                rec["latency"] = 1.5
                rec["usage"] = {"prompt_tokens": 10}
                rec["model"] = "x-model"
            recs.append(rec)
            if rng.random() < 0.06:  # duplicate id: the first wins
                dup = _make_pred_record(rng, key, tid, {"notes": "duplicate", "total": 1}, False, ascii_)
                dup["cost"] = 0.25
                recs.append(dup)
        if rng.random() < 0.15 and id_mode != "positional":
            extra = {"id": "unknown_%d" % mi, "total": 5, "cost": 0.125, "ghost_field": "boo"}
            if id_mode in ("ext_truth", "filename"):
                extra = {"filename": "nope.txt", "total": 5}
            elif id_mode == "id_field":
                extra = {"doc_key": "Kzz", "total": 5}
            recs.insert(rng.randint(0, len(recs)), extra)
        if rng.random() < 0.05 and recs:
            rng.shuffle(recs)
        fmt = rng.choice(["jsonl", "jsonl", "json"])
        if fmt == "json" and id_mode in ("id", "ext_pred") and rng.random() < 0.4 and not (batch_model and mi == 0):
            # id -> record map form
            keyed = []
            ok = True
            for r in recs:
                if "id" not in r:
                    ok = False
                    break
                rr = dict(r)
                kk = rr.pop("id")
                keyed.append([str(kk), rr])
            if ok and len({k for k, _ in keyed}) == len(keyed):
                fmt = "map"
                recs = keyed
        models.append({"name": name, "records": recs, "fmt": fmt})
    schema = gen_schema(rng, fields, st) if rng.random() < 0.55 else None
    config = gen_config(rng, st)
    if rng.random() < 0.15:
        config = None if not (st["numstr_inv"] or st["numstr_sku"] or st["id_field"] or st["date_fields"]) else config
    preset = rng.choice(["standard", "exact", "not-found", "invoice-cer"]) if rng.random() < 0.15 else None
    costs = {}
    if rng.random() < 0.1:
        costs[models[0]["name"]] = rng.choice([0.5, 12, 0.001])
    tfmt = rng.choice(["jsonl", "jsonl", "json"])
    if id_mode == "id" and rng.random() < 0.1 and len({t.get("id") for t in truth}) == len(truth):
        tfmt = "map"  # {id: record}; the records keep their "id" key or not
        keep = rng.random() < 0.5
        truth = [[t["id"], (t if keep else {k: v for k, v in t.items() if k != "id"})] for t in truth]
    ds = {"truth": truth, "truth_fmt": tfmt, "models": models,
          "schema": schema, "config": config, "preset": preset, "costs": costs, "ascii": ascii_}
    if rng.random() < 0.35:
        chaos(rng, ds)
    return ds


def _trecs(ds):
    return [r[1] if ds["truth_fmt"] == "map" else r for r in ds["truth"]]


def _tpre(ds, i):
    return ["truth", i] + ([1] if ds["truth_fmt"] == "map" else [])


def chaos(rng, ds):
    """Structural oddities the plain generator does not produce."""
    truth = _trecs(ds)
    preds = [(m, r) for m in ds["models"] for r in _recs(m)]
    idkeys = ("id", "filename", "doc_id", "doc_key", "custom_id")
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(19)
        if kind == 0:  # a second item list
            for t in truth:
                if rng.random() < 0.7:
                    t["payments"] = [{"method": rng.choice(["card", "cash", "NOT_FOUND"]),
                                      "amount": gen_amount(rng), "on": fmt_date(rng, gen_date(rng), "iso")}
                                     for _ in range(rng.randint(0, 3))]
            for m, r in preds:
                if "payments" in _payload_keys(r, truth, r):
                    continue
                src_t = rng.choice(truth)
                if "payments" in src_t and _is_plain(r):
                    r["payments"] = perturb_items(rng, copy.deepcopy(src_t["payments"]),
                                                  {"sku": False, "numstr_sku": False, "tol": 0})
        elif kind == 1:  # a set field seen in predictions only
            for m, r in preds:
                if _is_plain(r) and rng.random() < 0.5:
                    r["labels"] = rng.sample(["a", "b", "c", "B"], rng.randint(0, 3))
        elif kind == 2:  # an item list seen in predictions only
            for m, r in preds:
                if _is_plain(r) and rng.random() < 0.5:
                    r["lines"] = [{"x": rng.randint(1, 3), "y": rng.choice(["p", "q"])}
                                  for _ in range(rng.randint(0, 2))]
        elif kind == 3:  # the same path: scalar in one record, array in another
            for i, t in enumerate(truth):
                t["ref"] = rng.choice(["A1", ["A1", "B2"], "NOT_FOUND", ["A1"], 7, []])
            for m, r in preds:
                if _is_plain(r):
                    r["ref"] = rng.choice(["A1", ["A1", "B2"], ["B2", "A1"], "a1", [], None, 7])
        elif kind == 4:  # non-string set elements
            for t in truth:
                t["codes"] = rng.choice([[8471, "8471"], [True, "true"], [1.5, "1.50"], ["x", "x", "y"],
                                         ["  Spaced   code "], ["ÄÖ", "äö"]])
            for m, r in preds:
                if _is_plain(r):
                    r["codes"] = rng.choice([["8471"], [8471], ["true"], [1.5], ["X"], ["spaced code"],
                                             ["äö", "ÄÖ", "äö"], "x"])
        elif kind == 5:  # metadata key names below the top level are fields
            for rec in truth + [r for _, r in preds if _is_plain(r)]:
                if rng.random() < 0.8:
                    rec["meta"] = {"model": rng.choice(["X1", "X2"]), "cost": rng.choice([3, 4]),
                                   "deep": {"er": {"path": rng.choice(["deep", "Deep", "NOT_FOUND"])}}}
        elif kind == 6:  # empty objects and objects vs scalars
            for rec in truth + [r for _, r in preds if _is_plain(r)]:
                rec["vendor"] = rng.choice([{}, None, {"name": "Acme"}, "Acme", {"name": None},
                                            {"name": "Acme", "address": {}}])
        elif kind == 7:  # exotic whitespace and zero-width characters
            for rec in truth + [r for _, r in preds if _is_plain(r)]:
                rec["label"] = rng.choice(["Acme Corp", "\u3000Acme\u2003Corp\u2028", "Acme\u200bCorp",
                                           "ACME\u00a0CORP", " acme corp\t", "\u2029", "Acme\x0bCorp",
                                           "Acme\x1cCorp"])
        elif kind == 8:  # strings built to sit on the similarity / CER thresholds
            base = "abcdefghijklmnopqrst"  # 20 characters
            for rec in truth:
                rec["code_name"] = base
            for m, r in preds:
                if _is_plain(r):
                    k = rng.choice([2, 3, 4, 12, 13])
                    r["code_name"] = "".join("Z" if i < k else c for i, c in enumerate(base))
        elif kind == 9:  # null and scalar elements inside item lists
            for rec in truth + [r for _, r in preds if _is_plain(r)]:
                if isinstance(rec.get("items"), list) and rng.random() < 0.5:
                    rec["items"].insert(rng.randint(0, len(rec["items"])), rng.choice([None, "x", 5, [], {}]))
        elif kind == 10:  # ids with surrounding whitespace
            for rec in truth:
                for k in idkeys:
                    if isinstance(rec.get(k), str):
                        rec[k] = " " + rec[k] + "\t"
        elif kind == 11:  # a numeric string field given as numbers / padded
            for rec in truth:
                rec["account"] = rng.choice(["000123", "123", "00", "0", "12a", "０１２"])
            for m, r in preds:
                if _is_plain(r):
                    r["account"] = rng.choice(["123", 123, "0123", "0", 0, "000", "12A", "", 1.0, "+123"])
            cfg = ds["config"] if ds["config"] is not None else {}
            cfg.setdefault("numeric_string_fields", []).append("account")
            ds["config"] = cfg
        elif kind == 12:  # a date field without schema, via date_fields
            for rec in truth:
                rec["shipped"] = rng.choice(["2024-02-29", "29.2.2024", "02/03/2024", "2023-02-29", "3/2/2024",
                                             "2024-02-29T23:00:00-05:00", 20240229])
            for m, r in preds:
                if _is_plain(r):
                    r["shipped"] = rng.choice(["2024-02-29", "29/02/2024", "2/3/2024", "03/02/2024",
                                               "2024-02-29T25:99:99", "2024-02-29T24:30", "2024-02-29t10:00z",
                                               "2024-02-29T10:00:00+25:00", "2024-02-29T10", "2024-02-29T10:00:00.",
                                               "29.02.2024 10:00", "2024-02-29Z", "+2024-02-29", "2024-W09-4",
                                               "2024-060", "29. 2. 2024", "29.2.24", "2024/02/29",
                                               "2024-03-02", "2024-02-29T01:00:00Z", "20240229", 20240229,
                                               "2024-02-29 00:00:00.5", "2024-02-29T24:00:00"])
            cfg = ds["config"] if ds["config"] is not None else {}
            cfg.setdefault("date_fields", []).append("shipped")
            ds["config"] = cfg
        elif kind == 13:  # booleans in many spellings
            for rec in truth:
                rec["flag"] = rng.choice([True, False, "true", "False", "yes", None])
            for m, r in preds:
                if _is_plain(r):
                    r["flag"] = rng.choice([True, False, "TRUE", " false ", "yes", "no", 1, 0, "NOT_FOUND"])
        elif kind == 14:  # an item list and a set nested in an object
            for rec in truth + [r for _, r in preds if _is_plain(r)]:
                rec["order"] = {"lines": [{"sku": rng.choice(["A", "B", "C"]), "qty": rng.randint(1, 3)}
                                          for _ in range(rng.randint(0, 3))],
                                "tags": rng.sample(["x", "y", "z"], rng.randint(0, 3)),
                                "ref": rng.choice(["R1", "R2", None])}
        elif kind == 15:  # metadata keys in the truth are not evaluated either
            for rec in truth:
                rec["cost"] = 9
                rec["model"] = "truth-model"
                rec["usage"] = {"x": 1}
        elif kind == 16:  # non-ASCII ids in different normal forms
            for mo in ds["models"]:
                if mo["fmt"] == "map":
                    continue
                for r in mo["records"]:
                    for k in idkeys:
                        if isinstance(r.get(k), str):
                            r[k] = nfd("café_" + r[k])
            for rec in truth:
                for k in idkeys:
                    if isinstance(rec.get(k), str):
                        rec[k] = "café_" + rec[k]
        elif kind == 17:  # an array inside items, typed in the schema
            for rec in truth + [r for _, r in preds if _is_plain(r)]:
                if isinstance(rec.get("items"), list):
                    for it in rec["items"]:
                        if isinstance(it, dict):
                            it["tags"] = rng.choice([["a"], ["a", "b"], [], ["b", "a"], "a"])
            if ds["schema"] is not None and "items" in ds["schema"]["properties"]:
                ds["schema"]["properties"]["items"]["items"]["properties"]["tags"] = {
                    "type": "array", "items": {"type": "string"}}
        elif kind == 18:  # fields that differ only in key case, deep nesting
            for rec in truth + [r for _, r in preds if _is_plain(r)]:
                rec[rng.choice(["Total", "total_", "TOTAL"])] = rng.choice([1, "1", None])
                rec["a"] = {"b": {"c": {"d": {"e": rng.choice(["deep", "DEEP", "NOT_FOUND", 5])}}}}
    for m in ds["models"]:
        if rng.random() < 0.05:
            m["records"] = []  # an empty prediction file
    ds["bom"] = rng.random() < 0.2
    ds["crlf"] = rng.random() < 0.2
    ds["blank"] = rng.random() < 0.2


def _is_plain(r):
    return "custom_id" not in r and not any(k in r for k in R.RAW_KEYS)


def _payload_keys(r, truth, _):
    return set(r.keys())


def _idkey(trec, id_mode):
    return {"id": "id", "numeric": "id", "ext_pred": "id", "ext_truth": "filename", "filename": "filename",
            "id_field": "doc_key", "fallback": "doc_id"}.get(id_mode)


def _make_pred_record(rng, key, tid, pay, batch, ascii_):
    if batch and key is not None:
        content = fence(rng, pay, ascii_)
        rec = {}
        if rng.random() < 0.5:
            rec["id"] = "batch_req_%d" % rng.randint(1, 10 ** 6)
        rec["custom_id"] = str(tid)
        rec["response"] = {"status_code": 200, "body": {"choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}}]}}
        if rng.random() < 0.5:
            rec["error"] = None
        return rec
    rec = {}
    if key is not None:
        rec[key] = tid
    r = rng.random()
    if r < 0.1:
        rec[rng.choice(["output", "response", "completion", "content", "text", "prediction"])] = fence(rng, pay, ascii_)
    elif r < 0.11:
        rec["output"] = fence(rng, pay, ascii_)   # raw text plus another field: not raw output
        rec["note"] = "see output"
    elif r < 0.115:
        rec["output"] = pay                        # an object under "output": ordinary nested fields
    elif r < 0.12:
        rec["output"] = 42                         # not a string: an ordinary field
    else:
        rec.update(pay)
    return rec


# --------------------------------------------------------------------------
# running both sides

def _open_w(ds, path):
    f = open(path, "w", encoding="utf-8", newline="\r\n" if ds.get("crlf") else "\n")
    if ds.get("bom"):
        f.write("\ufeff")
    return f


def _write_lines(ds, f, recs):
    a = ds["ascii"]
    for i, r in enumerate(recs):
        if ds.get("blank") and i == 1:
            f.write("\n  \n")
        f.write(json.dumps(r, ensure_ascii=a) + "\n")


def write_dataset(ds, d):
    os.makedirs(d, exist_ok=True)
    a = ds["ascii"]
    tpath = os.path.join(d, "truth." + ("json" if ds["truth_fmt"] == "map" else ds["truth_fmt"]))
    with _open_w(ds, tpath) as f:
        if ds["truth_fmt"] == "jsonl":
            _write_lines(ds, f, ds["truth"])
        elif ds["truth_fmt"] == "map":
            json.dump({k: r for k, r in ds["truth"]}, f, ensure_ascii=a, indent=1)
        else:
            json.dump(ds["truth"], f, ensure_ascii=a, indent=1)
    args = ["eval", "--truth", tpath]
    for m in ds["models"]:
        ext = "jsonl" if m["fmt"] == "jsonl" else "json"
        p = os.path.join(d, "pred_%s.%s" % (m["name"], ext))
        with _open_w(ds, p) as f:
            if m["fmt"] == "jsonl":
                _write_lines(ds, f, m["records"])
            elif m["fmt"] == "map":
                obj = {}
                for k, r in m["records"]:
                    obj[k] = r
                json.dump(obj, f, ensure_ascii=a, indent=1)
            else:
                json.dump(m["records"], f, ensure_ascii=a, indent=1)
        args += ["--pred", "%s=%s" % (m["name"], p)]
    if ds["schema"] is not None:
        sp = os.path.join(d, "schema.json")
        with open(sp, "w", encoding="utf-8") as f:
            json.dump(ds["schema"], f, ensure_ascii=a, indent=1)
        args += ["--schema", sp]
    if ds["config"] is not None:
        cp = os.path.join(d, "config.json")
        with open(cp, "w", encoding="utf-8") as f:
            json.dump(ds["config"], f, ensure_ascii=a, indent=1)
        args += ["--config", cp]
    if ds["preset"]:
        args += ["--preset", ds["preset"]]
    for n, v in ds["costs"].items():
        args += ["--cost", "%s=%s" % (n, v)]
    args += ["--format", "json"]
    return args


def run_both(ds, d):
    if os.path.isdir(d):
        shutil.rmtree(d)
    args = write_dataset(ds, d)
    p = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=120)
    rust = None
    if p.returncode == 0:
        rust = json.loads(p.stdout)
    # the reference reads the same files
    truth = R.load_records(args[args.index("--truth") + 1])
    preds = {}
    for i, a in enumerate(args):
        if a == "--pred":
            nm, path = args[i + 1].split("=", 1)
            preds[nm] = R.load_records(path)
    schema = json.load(open(os.path.join(d, "schema.json"), encoding="utf-8")) if ds["schema"] is not None else None
    config = json.load(open(os.path.join(d, "config.json"), encoding="utf-8")) if ds["config"] is not None else None
    notes = []
    ref_err = None
    ref = None
    try:
        ref = R.evaluate(truth, preds, schema, config, costs=ds["costs"], preset=ds["preset"], notes=notes)
    except Exception as e:  # pragma: no cover
        import traceback
        ref_err = traceback.format_exc()
    alt = None
    if rust is not None and ref is not None and diff_reports(rust, ref):
        # does another reading of an open point explain the difference?
        combos = []
        for n in range(1, len(ALTERNATIVES) + 1):
            combos += list(itertools.combinations(ALTERNATIVES, n))
        forced = None
        if any(m.get("items") for m in ref["models"]):
            forced = rust_matchings(args, rust)
        for with_forced in ([False, True] if forced else [False]):
            for combo in ([()] if with_forced else []) + combos:
                opts = dict(combo)
                if with_forced:
                    opts["forced_pairs"] = forced
                fnotes = []
                try:
                    r2 = R.evaluate(truth, preds, schema, config, costs=ds["costs"], preset=ds["preset"],
                                    options=opts, notes=fnotes)
                except Exception:
                    continue
                if not diff_reports(rust, r2):
                    parts = ["%s=%s" % (o, json.dumps(v)) for o, v in combo]
                    bad = [x for x in fnotes if x.startswith("imposed")]
                    if with_forced:
                        parts.append("rust_matching" + ("_NOT_MAXIMAL" if bad else "_is_another_optimum"))
                        notes.extend(bad)
                    alt = "+".join(parts)
                    break
            if alt:
                break
    return {"args": args, "rc": p.returncode, "stderr": p.stderr, "rust": rust, "ref": ref,
            "ref_err": ref_err, "notes": notes, "alt": alt}


def rust_matchings(args, rust):
    """The item matchings the Rust tool made, read from its --details output."""
    p = subprocess.run([BIN] + args + ["--details"], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        return None
    rep = json.loads(p.stdout)
    out = {}
    for m in rep["models"]:
        for d in m.get("document_details") or []:
            for f in d.get("fields", []):
                if f.get("truth_item") is not None and f.get("pred_item") is not None and "[]." in f["field"]:
                    lp = f["field"].split("[].")[0]
                    key = "%s/%s/%s" % (m["name"], d["id"], lp)
                    out.setdefault(key, set()).add((f["truth_item"], f["pred_item"]))
            # lists with items but no matched pair: impose the empty matching
            for f in d.get("fields", []):
                if "[]." in f["field"]:
                    key = "%s/%s/%s" % (m["name"], d["id"], f["field"].split("[].")[0])
                    out.setdefault(key, set())
    return {k: sorted(v) for k, v in out.items()}


# alternative readings of points SPEC.md leaves open (see fieldscope_ref.DEFAULT_OPTIONS)
ALTERNATIVES = [("fallback_id_key_is_field", True), ("validate_time", False),
                ("raw_nonobject_falls_back", False), ("allow_end_of_day_2400", False)]


# --------------------------------------------------------------------------
# comparing reports

SCALAR_KEYS = ["cost", "truth_count", "pred_count", "m_total", "hallucination_rate", "abstention_rate",
               "numeric_precision", "field_f1_partial", "schema_validity_rate", "exact_match_rate",
               "document_extraction_score", "cer"]


def _flat_cfg(prefix, v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            _flat_cfg(prefix + "." + k, x, out)
    else:
        out[prefix] = v


def flatten_report(rep):
    out = {"documents": rep["documents"], "fieldscope_report": rep.get("fieldscope_report")}
    _flat_cfg("config", rep.get("config", {}), out)
    for mi, m in enumerate(rep["models"]):
        pre = "models[%d]." % mi
        out[pre + "name"] = m["name"]
        for k, v in m["counts"].items():
            out[pre + "counts." + k] = v
        for k in SCALAR_KEYS:
            out[pre + k] = m.get(k, "<missing>")
        for blk in ("micro", "macro_documents", "macro_fields", "partial"):
            for k, v in (m.get(blk) or {}).items():
                out[pre + blk + "." + k] = v
        out[pre + "fields#names"] = [r["field"] for r in m["fields"]]
        for r in m["fields"]:
            fp = pre + "fields[%s]." % r["field"]
            for k, v in r["counts"].items():
                out[fp + "counts." + k] = v
            for k in ("precision", "recall", "f1", "accuracy", "cer", "mean_cer"):
                out[fp + k] = r.get(k, "<missing>")
        out[pre + "sets#keys"] = sorted(m["sets"].keys())
        for sk, s in m["sets"].items():
            sp = pre + "sets[%s]." % sk
            for k, v in s.items():
                if k == "hit_at_k":
                    out[sp + "hit_at_k#keys"] = sorted(v.keys())
                    for hk, hv in v.items():
                        out[sp + "hit_at_k." + hk] = hv
                else:
                    out[sp + k] = v
        out[pre + "items#null"] = m["items"] is None
        if m["items"] is not None:
            for k, v in m["items"].items():
                out[pre + "items." + k] = v
    return out


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= TOL
    return a == b


def diff_reports(rust, ref):
    fr, ff = flatten_report(rust), flatten_report(ref)
    diffs = []
    for k in sorted(set(fr) | set(ff), key=_key_order):
        a, b = fr.get(k, "<absent>"), ff.get(k, "<absent>")
        if not same(a, b):
            diffs.append((k, a, b))
    return diffs


_PRIO = ["documents", "name", "fields#names", "sets#keys", "items#null", "fields[", "counts.", "cost",
         "schema_validity_rate", "items.", "sets[", "cer", "numeric_precision", ""]


def _key_order(k):
    tail = re.sub(r"^models\[\d+\]\.", "", k)
    for i, p in enumerate(_PRIO):
        if (p == "" or tail.startswith(p)) and not (p == "fields[" and (tail.endswith("cer"))):
            return (i, k)
    return (len(_PRIO), k)


def classify(res):
    if res["ref_err"]:
        return "ref_error"
    if res["rc"] != 0:
        return "rust_exit_%d" % res["rc"]
    diffs = diff_reports(res["rust"], res["ref"])
    if not diffs:
        return None
    if res.get("alt"):
        if res["alt"] == "rust_matching_is_another_optimum":
            return "ITEM-TIE:rust_chose_another_maximal_matching"
        return "READING:" + res["alt"]
    k = diffs[0][0]
    k = re.sub(r"^models\[\d+\]\.", "", k)
    k = re.sub(r"\[[^\]]*\]\.", lambda m: "[" + _generic_field(m.group(0)[1:-2]) + "].", k)
    if res["notes"]:
        # an item-matching tie was resolved differently: only item-related keys
        # (and the aggregates they feed) may differ
        plain = [d for d in diffs if _non_item_key(d[0])]
        if plain:
            k = re.sub(r"^models\[\d+\]\.", "", plain[0][0])
        else:
            k = "TIE-AMBIGUOUS:" + k
    return k


def _non_item_key(key):
    t = re.sub(r"^models\[\d+\]\.", "", key)
    if t.startswith("fields[") and "[]." not in t.split("]", 1)[0] + "]" and "[]." not in t:
        return True
    return t.startswith(("sets", "fields#names", "documents", "name", "cost", "schema_validity"))


def _generic_field(name):
    if "[]." in name:
        return "item:" + name.split("[].", 1)[1]
    return name


# --------------------------------------------------------------------------
# shrinking

def shrink(ds, cls, workdir, budget=400):
    """Greedy reduction keeping the same disagreement class."""
    runs = [0]

    def still_fails(cand):
        if runs[0] >= budget:
            return False
        runs[0] += 1
        try:
            res = run_both(cand, workdir)
        except Exception:
            return False
        return classify(res) == cls

    cur = copy.deepcopy(ds)
    changed = True
    while changed and runs[0] < budget:
        changed = False
        for cand in _candidates(cur):
            if still_fails(cand):
                cur = cand
                changed = True
                break
    return cur


def _candidates(ds):
    # fewer models
    if len(ds["models"]) > 1:
        for i in range(len(ds["models"])):
            c = copy.deepcopy(ds)
            del c["models"][i]
            c["costs"] = {k: v for k, v in c["costs"].items() if k in {m["name"] for m in c["models"]}}
            yield c
    # fewer truth records
    if len(ds["truth"]) > 1:
        for i in range(len(ds["truth"])):
            c = copy.deepcopy(ds)
            del c["truth"][i]
            yield c
    # fewer prediction records
    for mi, m in enumerate(ds["models"]):
        for i in range(len(m["records"])):
            c = copy.deepcopy(ds)
            del c["models"][mi]["records"][i]
            yield c
    # drop the schema, config pieces, preset, costs, ascii
    if ds["schema"] is not None:
        c = copy.deepcopy(ds)
        c["schema"] = None
        yield c
        for k in list(ds["schema"].get("properties", {})):
            c = copy.deepcopy(ds)
            del c["schema"]["properties"][k]
            if k in c["schema"].get("required", []):
                c["schema"]["required"].remove(k)
            yield c
        for k in ("required", "additionalProperties"):
            if k in ds["schema"]:
                c = copy.deepcopy(ds)
                del c["schema"][k]
                yield c
    if ds["config"]:
        for k in list(ds["config"]):
            c = copy.deepcopy(ds)
            del c["config"][k]
            yield c
    if ds["preset"]:
        c = copy.deepcopy(ds)
        c["preset"] = None
        yield c
    if ds["costs"]:
        c = copy.deepcopy(ds)
        c["costs"] = {}
        yield c
    if ds["ascii"]:
        c = copy.deepcopy(ds)
        c["ascii"] = False
        yield c
    # drop keys everywhere / in single records, shorten lists
    keys = set()
    for r in _trecs(ds):
        keys.update(r.keys())
    for k in sorted(keys):
        if k in ("id", "filename", "doc_id", "doc_key"):
            continue
        c = copy.deepcopy(ds)
        for r in _trecs(c):
            r.pop(k, None)
        for m in c["models"]:
            for r in _recs(m):
                r.pop(k, None)
        yield c
    for ti, tr in enumerate(_trecs(ds)):
        for k in list(tr):
            if k in ("id", "filename", "doc_id", "doc_key"):
                continue
            c = copy.deepcopy(ds)
            del _trecs(c)[ti][k]
            yield c
    for mi, m in enumerate(ds["models"]):
        for ri, r in enumerate(_recs(m)):
            for k in list(r):
                if k in ("id", "filename", "doc_id", "doc_key", "custom_id"):
                    continue
                c = copy.deepcopy(ds)
                del _recs(c["models"][mi])[ri][k]
                yield c
    for path in _list_paths(ds):
        c = copy.deepcopy(ds)
        lst = _get(c, path)
        if isinstance(lst, list) and lst:
            lst.pop()
            yield c
        c = copy.deepcopy(ds)
        lst = _get(c, path)
        if isinstance(lst, list) and lst:
            lst.pop(0)
            yield c
    for path in _dict_paths(ds):
        obj = _get(ds, path)
        for k in list(obj):
            c = copy.deepcopy(ds)
            del _get(c, path)[k]
            yield c


def _recs(m):
    return [r if m["fmt"] != "map" else r[1] for r in m["records"]]


def _list_paths(ds):
    out = []

    def walk(v, path):
        if isinstance(v, list):
            out.append(path)
            for i, x in enumerate(v):
                walk(x, path + [i])
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + [k])
    for i, r in enumerate(_trecs(ds)):
        for k, x in r.items():
            walk(x, _tpre(ds, i) + [k])
    for mi, m in enumerate(ds["models"]):
        for ri, r in enumerate(m["records"]):
            rr = r if m["fmt"] != "map" else r[1]
            pre = ["models", mi, "records", ri] + ([1] if m["fmt"] == "map" else [])
            for k, x in rr.items():
                walk(x, pre + [k])
    return out


def _dict_paths(ds):
    out = []

    def walk(v, path, top):
        if isinstance(v, dict):
            if not top:
                out.append(path)
            for k, x in v.items():
                walk(x, path + [k], False)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, path + [i], False)
    for i, r in enumerate(_trecs(ds)):
        walk(r, _tpre(ds, i), True)
    for mi, m in enumerate(ds["models"]):
        for ri, r in enumerate(m["records"]):
            rr = r if m["fmt"] != "map" else r[1]
            pre = ["models", mi, "records", ri] + ([1] if m["fmt"] == "map" else [])
            walk(rr, pre, True)
    return out


def _get(ds, path):
    v = ds
    for p in path:
        v = v[p]
    return v


# --------------------------------------------------------------------------
# directed cases: SPEC section 6 and hand-made minimal cases

def _ds(truth, preds, config=None, schema=None, preset=None, fmt="jsonl"):
    return {"truth": truth, "truth_fmt": "jsonl", "models": [{"name": n, "records": r, "fmt": fmt}
                                                              for n, r in preds.items()],
            "schema": schema, "config": config, "preset": preset, "costs": {}, "ascii": False}


def _spec_example_1(preset):
    truth = {"id": "d1"}
    pred = {"id": "d1"}
    for k in range(17):
        f = "f%02d" % k
        if k < 8:
            truth[f] = "value %d" % k
            pred[f] = ("value %d" % k) if k < 3 else ("wrong %d" % k if k < 5 else "NOT_FOUND")
        else:
            truth[f] = "NOT_FOUND"
            pred[f] = "NOT_FOUND"
    return _ds([truth], {"conservative": [pred]}, preset=preset)


# name -> (dataset, {report pointer: value the SPEC states})
DIRECTED = {
    "spec6_1_not_found": (_spec_example_1("not-found"), {
        "models/0/micro/accuracy": 12 / 17, "models/0/micro/precision": 0.6,
        "models/0/micro/recall": 0.5, "models/0/micro/f1": 6 / 11}),
    "spec6_1_exact": (_spec_example_1("exact"), {"models/0/micro/recall": 0.375}),
    "spec6_2_top5": (_ds([{"id": "a", "codes": ["12345"]}],
                         {"m": [{"id": "a", "codes": ["12345", "67890", "11111", "22222", "33333"]}]}), {
        "models/0/sets/codes/precision": 0.2, "models/0/sets/codes/recall": 1.0,
        "models/0/sets/codes/accuracy": 0.6, "models/0/sets/codes/legacy_accuracy": 0.2,
        "models/0/sets/codes/f1": 1 / 3}),
    "spec6_2_top3": (_ds([{"id": "a", "codes": ["12345"]}],
                         {"m": [{"id": "a", "codes": ["12345", "67890", "11111"]}]}), {
        "models/0/sets/codes/accuracy": 2 / 3, "models/0/sets/codes/legacy_accuracy": 1 / 3}),
    "spec6_2_two_two": (_ds([{"id": "a", "codes": ["1", "2"]}], {"m": [{"id": "a", "codes": ["1", "3"]}]}), {
        "models/0/sets/codes/accuracy": 0.5, "models/0/sets/codes/legacy_accuracy": 0.5}),
    "spec6_3_silent": (_ds([{"id": "A", "x": []}, {"id": "B", "x": []}, {"id": "C", "x": ["c"]}],
                           {"m": [{"id": "A", "x": []}, {"id": "B", "x": []}, {"id": "C", "x": ["c"]}]}), {
        "models/0/macro_documents/precision": 1.0, "models/0/macro_documents/recall": 1.0,
        "models/0/macro_documents/f1": 1.0, "models/0/micro/precision": 1.0, "models/0/micro/recall": 1.0}),
    "spec6_3_hallucinates": (_ds([{"id": "A", "x": []}, {"id": "B", "x": []}, {"id": "C", "x": ["c"]}],
                                 {"m": [{"id": "A", "x": []}, {"id": "B", "x": ["x"]}, {"id": "C", "x": ["c"]}]}), {
        "models/0/macro_documents/precision": 2 / 3, "models/0/macro_documents/recall": 2 / 3,
        "models/0/micro/precision": 0.5, "models/0/micro/recall": 1.0}),
    "spec6_4_swap": (_ds([{"id": "a", "n": "Invoice 1234"}], {"m": [{"id": "a", "n": "Invoice 1243"}]},
                         preset="invoice-cer"), {
        "models/0/counts/incorrect": 1, "models/0/cer": 2 / 12}),
    "spec6_4_deletion": (_ds([{"id": "a", "n": "Invoice 1234"}], {"m": [{"id": "a", "n": "invoice 124"}]},
                             preset="invoice-cer"), {
        "models/0/counts/exact": 1, "models/0/cer": 1 / 12}),
    # equal total item F1, no (i, i) pair: which matching?  (truth item 1 can
    # pair with prediction 0 -> "d" partial, or prediction 2 -> "d" incorrect)
    "item_tie": (_ds([{"id": "d", "items": [{}, {"q": "2", "d": "Laptop stand"}, {"a": "x"}]}],
                     {"m": [{"id": "d", "items": [{"q": "2", "d": "Laptop", "a": "y"}, {"q": "2", "a": "x"},
                                                  {"q": "2", "d": "zzz", "a": "z"}]}]}), {}),
    "time_2400": (_ds([{"id": "d", "shipped": "29.2.2024"}], {"m": [{"id": "d", "shipped": "2024-02-29T24:00:00"}]},
                      config={"date_fields": ["shipped"]}), {}),
    "time_2599": (_ds([{"id": "d", "shipped": "29.2.2024"}], {"m": [{"id": "d", "shipped": "2024-02-29T25:99:99"}]},
                      config={"date_fields": ["shipped"]}), {}),
    "fallback_id_key": (_ds([{"doc_id": "d1", "x": "a"}], {"m": [{"id": "d1", "x": "a"}]}), {
        "models/0/counts/spurious": 0}),
    "raw_array_output": (_ds([{"id": "d", "total": 1}], {"m": [{"id": "d", "output": "```json\n[{\"total\": 1}]\n```"}]}), {}),
    "raw_output_escaped_nfd": (_ds([{"id": "d", "n": "Ñandú"}], {"m": [{"id": "d", "output": json.dumps({"n": nfd("Ñandú")})}]}), {
        "models/0/counts/exact": 1}),
    # an ignored (unmatched or duplicate) prediction record decides no kind and adds no path
    "unmatched_record_no_kind": (_ds([{"id": "a", "n": 1}], {"m": [{"id": "zz", "tags": ["p", "q"]},
                                                                   {"id": "a", "n": 1, "tags": "x"}]}), {}),
    "unmatched_record_no_path": (_ds([{"id": "a", "n": 1}], {"m": [{"id": "zz", "ghost": "boo"}, {"id": "a", "n": 1}]}), {
        "models/0/counts/true_negative": 0}),
    "duplicate_record_no_path": (_ds([{"id": "a", "n": 1}], {"m": [{"id": "a", "n": 1}, {"id": "a", "n": 1, "dup": [1]}]}), {
        "models/0/counts/true_negative": 0}),
    "number_json_text_cer": (_ds([{"id": "d", "t": "4428", "u": "0,00 €"}], {"m": [{"id": "d", "t": 1e20, "u": 4e-7}]}), {}),
}


def _ptr(rep, p):
    v = rep
    for part in p.split("/"):
        v = v[int(part)] if isinstance(v, list) else v[part]
    return v


def run_directed(work, out, classes):
    """Run the directed cases; return (agree, total, spec_problems)."""
    agree, problems = 0, []
    for name, (ds, expect) in DIRECTED.items():
        res = run_both(ds, os.path.join(work, "directed"))
        for side in ("ref", "rust"):
            rep = res[side]
            if rep is None:
                continue
            for p, v in expect.items():
                got = _ptr(rep, p)
                if not same(got, v):
                    problems.append("%s: %s %s = %s, SPEC says %s" % (name, side, p, got, v))
        cls = classify(res)
        if cls is None:
            agree += 1
        else:
            classes.setdefault("directed:" + name + " -> " + cls, []).append((0, name, ds, res))
    return agree, len(DIRECTED), problems


# --------------------------------------------------------------------------
# main

def save_failure(name, ds, res, outdir):
    d = os.path.join(outdir, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    data = os.path.join(d, "data")
    args = write_dataset(ds, data)
    rel = [a.replace(d + "/", "") if isinstance(a, str) else a for a in args]
    with open(os.path.join(d, "dataset.json"), "w", encoding="utf-8") as f:
        json.dump(ds, f, ensure_ascii=False, indent=1)
    with open(os.path.join(d, "replay.sh"), "w") as f:
        f.write("#!/bin/sh\n# run from this directory\ncd \"$(dirname \"$0\")\"\n")
        f.write(" ".join(["../../../../target/debug/fieldscope"] + [_sh(a) for a in rel]) + "\n")
    os.chmod(os.path.join(d, "replay.sh"), 0o755)
    if res["rust"] is not None:
        json.dump(res["rust"], open(os.path.join(d, "rust.json"), "w"), ensure_ascii=False, indent=1)
    if res["ref"] is not None:
        json.dump(res["ref"], open(os.path.join(d, "ref.json"), "w"), ensure_ascii=False, indent=1)
    with open(os.path.join(d, "diff.txt"), "w", encoding="utf-8") as f:
        if res["rc"] != 0:
            f.write("rust exit %d\n%s\n" % (res["rc"], res["stderr"]))
        if res["ref_err"]:
            f.write("reference error:\n%s\n" % res["ref_err"])
        if res["rust"] is not None and res["ref"] is not None:
            for k, a, b in diff_reports(res["rust"], res["ref"]):
                f.write("%s\n    rust: %s\n    ref:  %s\n" % (k, json.dumps(a, ensure_ascii=False),
                                                             json.dumps(b, ensure_ascii=False)))
        if res["notes"]:
            f.write("reference notes:\n" + "\n".join(res["notes"]) + "\n")
    return d


def _sh(a):
    return a if re.match(r"^[A-Za-z0-9_./=:-]+$", a) else "'" + a.replace("'", "'\\''") + "'"


def _size(ds):
    return len(json.dumps(ds, ensure_ascii=False))


def ensure_binary():
    if not os.path.exists(BIN):
        subprocess.check_call(["cargo", "build"], cwd=ROOT)


def replay(d):
    ds = json.load(open(os.path.join(d, "dataset.json"), encoding="utf-8"))
    work = tempfile.mkdtemp(prefix="fsref_")
    res = run_both(ds, work)
    cls = classify(res)
    print("class:", cls)
    if res["rc"] != 0:
        print(res["stderr"])
    if res["ref_err"]:
        print(res["ref_err"])
    if res["rust"] is not None and res["ref"] is not None:
        for k, a, b in diff_reports(res["rust"], res["ref"]):
            print(k, "\n    rust:", json.dumps(a, ensure_ascii=False), "\n    ref: ", json.dumps(b, ensure_ascii=False))
    for n in res["notes"]:
        print("note:", n)
    shutil.rmtree(work, ignore_errors=True)
    return 0 if cls is None else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--replay", help="re-run a saved failure directory")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "failures"))
    ap.add_argument("--verbose", "-v", action="store_true")
    a = ap.parse_args()
    ensure_binary()
    if a.replay:
        return replay(a.replay)
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="fsref_")
    agree = 0
    classes = {}  # class -> list of (size, ds, res, idx)
    tie_notes = 0
    d_agree, d_total, problems = run_directed(work, a.out, classes)
    print("directed cases (SPEC section 6 and hand-made): %d of %d agree" % (d_agree, d_total))
    for p in problems:
        print("  SPEC value not met: " + p)
    for i in range(a.n):
        ds = generate(rng, i)
        res = run_both(ds, os.path.join(work, "ds"))
        cls = classify(res)
        if res["notes"]:
            tie_notes += 1
        if cls is None:
            agree += 1
            continue
        classes.setdefault(cls, []).append((_size(ds), i, ds, res))
        if a.verbose:
            print("dataset %d: %s" % (i, cls))
    print("compared %d datasets (seed %d): %d agree, %d disagree" % (a.n, a.seed, agree, a.n - agree))
    if tie_notes:
        print("(%d datasets had an item-matching tie whose choice changes outcomes)" % tie_notes)
    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    if classes:
        os.makedirs(a.out, exist_ok=True)
    for cls, lst in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        lst.sort(key=lambda x: x[0])
        size, idx, ds, res = lst[0]
        if not a.no_shrink and not cls.startswith("directed:"):
            ds = shrink(ds, cls, os.path.join(work, "shrink"))
            res = run_both(ds, os.path.join(work, "final"))
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", cls)[:80]
        d = save_failure(name, ds, res, a.out)
        print("\n== %s: %d dataset(s), e.g. #%s; minimal dataset in %s" % (cls, len(lst), idx, os.path.relpath(d, ROOT)))
        if res["rc"] != 0:
            print("   rust exit %d: %s" % (res["rc"], res["stderr"].strip()[:500]))
        if res["ref_err"]:
            print("   reference error: " + res["ref_err"].strip().splitlines()[-1])
        if res["rust"] is not None and res["ref"] is not None:
            for k, x, y in diff_reports(res["rust"], res["ref"])[:12]:
                print("   %s\n      rust: %s\n      ref:  %s" % (k, json.dumps(x, ensure_ascii=False)[:300],
                                                               json.dumps(y, ensure_ascii=False)[:300]))
    shutil.rmtree(work, ignore_errors=True)
    return 0 if not classes and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
