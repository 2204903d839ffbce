#!/usr/bin/env python3
"""Summarises the reliability figures the test command's own tests wrote.

Each reliability test writes one JSON object to $FOLIO_RELIABILITY_DIR/<area>.json. This prints
one section per area (what was tried, what survived) and, with --write FILE, writes the same as
markdown: docs/reliability.md is that file, regenerated from a run of scripts/test.sh.

    python3 scripts/reliability.py DIR [--write docs/reliability.md]
"""
import json
import os
import sys


def load(folder):
    areas = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                try:
                    areas[name[:-5]] = json.load(f)
                except json.JSONDecodeError as e:
                    areas[name[:-5]] = {"unreadable": str(e)}
    return areas


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def scalars(obj):
    return [(k, v) for k, v in obj.items() if isinstance(v, (int, float, str, bool)) and k != "area"]


def oneline(value):
    return str(value).replace("\n", " ").replace("|", "/")


def fuzz(d):
    rows = [(t.get("name"), t.get("execs"), t.get("execs_per_sec", ""), t.get("corpus", ""), t.get("crashes"), t.get("hangs", 0), t.get("secs"))
            for t in d.get("targets", [])]
    lines = table(["target", "executions", "exec/s", "corpus", "crashes", "hangs", "seconds"], rows)
    return lines + [""] + [f"- {k}: {v}" for k, v in scalars(d)]


def corpus(d):
    t = d.get("totals", {})
    lines = [f"- {k}: {v}" for k, v in t.items()]
    by = {}
    for f in d.get("files", []):
        for op, r in f.get("ops", {}).items():
            by.setdefault(op, {}).setdefault(r.get("class"), 0)
            by[op][r.get("class")] += 1
    classes = sorted({c for v in by.values() for c in v})
    lines += ["", "Outcomes per operation:", ""]
    lines += table(["operation"] + classes, [[op] + [by[op].get(c, 0) for c in classes] for op in sorted(by)])
    hostile = [f for f in d.get("files", []) if "hostile" in f.get("path", "") or f.get("source") == "made"]
    if hostile:
        lines += ["", "Hostile files (the corpus's `hostile/` and the ones the test makes) and what each operation answered:", ""]
        rows = []
        for f in hostile:
            ops = f.get("ops", {})
            path = f["path"].encode("unicode_escape").decode("ascii")
            rows.append([f"`{path}`"] + [short(ops.get(op, {})) for op in ("describe", "read", "render", "ls", "preview")])
        lines += table(["file", "describe", "read", "render", "ls", "preview"], rows)
    return lines


def short(r):
    if not r:
        return ""
    if r.get("class") == "ok":
        return "ok"
    text = str(r.get("outcome", "")).replace("|", "/").replace("\n", " ")
    return f"{r.get('class')}: {text[:70]}"


def faults(d):
    lines = [f"- {k}: {v}" for k, v in scalars(d)]
    rows = [(f.get("fault", f.get("name", "")), f.get("format", ""), f.get("outcome", ""), f.get("requests", ""), f.get("ms", "")) for f in d.get("faults", [])]
    lines += [""] + table(["fault", "format", "outcome", "requests", "ms"], rows)
    rows = [(c.get("state"), c.get("format"), c.get("latency_ms")) for c in d.get("cancels", [])]
    lines += ["", "Cancel latency (bound 200 ms):", ""] + table(["state", "format", "ms"], rows)
    return lines


def generic(d):
    lines = [f"- {k}: {v}" for k, v in scalars(d)]
    for k, v in d.items():
        if isinstance(v, dict):
            lines += [f"- {k}: " + ", ".join(f"{a}={oneline(b)}" for a, b in v.items() if not isinstance(b, (dict, list)))]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            keys = [key for key in v[0].keys() if not isinstance(v[0][key], (dict, list))]
            lines += ["", f"{k}:", ""] + table(keys, [[x.get(key, "") for key in keys] for x in v])
    return lines


TITLES = {
    "fuzz": ("Fuzzing", fuzz),
    "corpus": ("Real and hostile files", corpus),
    "provider-faults": ("Provider faults", faults),
    "crash-load": ("Crash and load", generic),
    "state-kills": ("Kills while the environment writes its own state", generic),
    "advertised": ("What the agent is shown", generic),
}


def render(areas):
    out = []
    for area, d in areas.items():
        title, fn = TITLES.get(area, (area, generic))
        out += [f"## {title}", ""]
        what = d.get("what")
        if what:
            out += [what, ""]
        out += fn(d) + [""]
    return out


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    folder = args[0]
    if not os.path.isdir(folder):
        print(f"reliability.py: {folder} holds no figures — hint: run scripts/test.sh, which sets FOLIO_RELIABILITY_DIR", file=sys.stderr)
        return 1
    areas = load(folder)
    body = render(areas)
    print("\n".join(body))
    if "--write" in args:
        target = args[args.index("--write") + 1]
        head = [
            "# Reliability",
            "",
            "Figures from one run of the test command (`scripts/test.sh`): each section is written by",
            "the test that measured it, into `$FOLIO_RELIABILITY_DIR`, and gathered here by",
            "`python3 scripts/reliability.py \"$FOLIO_RELIABILITY_DIR\" --write docs/reliability.md`.",
            "Nothing here is typed by hand.",
            "",
        ]
        with open(target, "w") as f:
            f.write("\n".join(head + body).rstrip() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
