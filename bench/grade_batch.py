#!/usr/bin/env python3
"""Grade an independent batch of learner files with a built `tutor` binary.

Usage: bench/grade_batch.py TUTOR_BIN BATCH_DIR CHAPTER [SEED ...]

BATCH_DIR holds files named `wrong-<exercise>-….rs`, `right-<exercise>-….rs` and
`cheat-<exercise>-….rs` and a MANIFEST.md whose table says, per file, what it intends.
Each file is copied over its exercise in a fresh `tutor init` folder and checked with
`--format json` on every seed given (default: three fixed seeds). Prints one Markdown row per
file (verdict on every seed, the names given) and the totals; the judgement "named right /
misnamed" is left to a reader comparing the name with the manifest's intent.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def manifest_intents(batch):
    """File name -> intended behaviour, from MANIFEST.md's table rows."""
    intents = {}
    path = os.path.join(batch, "MANIFEST.md")
    if not os.path.exists(path):
        return intents
    for line in open(path, encoding="utf-8"):
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].endswith(".rs"):
            intents[cells[0]] = cells[-1]
    return intents


def exercise_of(name, exercises):
    """`wrong-03-causal-attention-x.rs` -> `03-causal-attention` (longest matching stub)."""
    body = re.sub(r"^(wrong|right|cheat)-", "", name)
    matches = [e for e in exercises if body.startswith(e + "-") or body == e + ".rs"]
    if not matches:
        number = body[:2]
        matches = [e for e in exercises if e.startswith(number)]
    return max(matches, key=len) if matches else None


def check(tutor, course, exercise, seed):
    env = dict(os.environ, NO_COLOR="1", TUTOR_LANG="en")
    done = subprocess.run(
        [tutor, "check", exercise, "--format", "json", "--lang", "en", "--seed", str(seed)],
        cwd=course, env=env, capture_output=True, text=True, timeout=600,
    )
    try:
        report = json.loads(done.stdout)
        entry = report["exercises"][0]
        names = ["%s (%s)" % (m["id"], m["title"]["en"]) for m in entry.get("mistakes", [])]
        return entry["status"], entry.get("passed"), entry.get("total"), names
    except (ValueError, KeyError, IndexError):
        return "tool-error(rc=%d)" % done.returncode, None, None, []


def main():
    tutor, batch, chapter = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    seeds = [int(s) for s in sys.argv[4:]] or [1, 2, 3]
    work = tempfile.mkdtemp(prefix="batch-")
    try:
        subprocess.run([tutor, "init", "course"], cwd=work, capture_output=True, check=True)
        course = os.path.join(work, "course")
        stubs = os.path.join(course, "exercises", chapter)
        exercises = sorted(f[:-3] for f in os.listdir(stubs) if f.endswith(".rs"))
        originals = {e: open(os.path.join(stubs, e + ".rs")).read() for e in exercises}
        intents = manifest_intents(batch)
        totals = {}
        print("| file | intended | verdicts (seeds %s) | names |" % ",".join(map(str, seeds)))
        print("|---|---|---|---|")
        for name in sorted(f for f in os.listdir(batch) if f.endswith(".rs")):
            kind = name.split("-", 1)[0]
            exercise = exercise_of(name, exercises)
            if exercise is None:
                print("| %s | ? | no exercise | |" % name)
                continue
            shutil.copy(os.path.join(batch, name), os.path.join(stubs, exercise + ".rs"))
            verdicts, names = [], []
            for seed in seeds:
                status, passed, total, found = check(tutor, course, exercise, seed)
                verdicts.append("%s %s/%s" % (status, passed, total))
                names.extend(n for n in found if n not in names)
            with open(os.path.join(stubs, exercise + ".rs"), "w") as stub:
                stub.write(originals[exercise])
            passed_all = all(v.startswith("pass") for v in verdicts)
            failed_all = all(v.startswith("fail") for v in verdicts)
            key = (kind, "pass" if passed_all else "fail" if failed_all else "mixed",
                   "named" if names else "unnamed")
            totals[key] = totals.get(key, 0) + 1
            print("| %s | %s | %s | %s |" % (name, intents.get(name, "?"), "; ".join(verdicts),
                                           ", ".join(names) or "—"))
        print()
        for key in sorted(totals):
            print("- %s: %d" % (" / ".join(key), totals[key]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
