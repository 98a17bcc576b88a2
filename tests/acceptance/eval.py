#!/usr/bin/env python3
"""Grade an acceptance batch: every file, seeds 1..5, with one tutor binary.
usage: eval.py BINARY BATCH_DIR OUT_TSV [course]"""
import json, os, shutil, subprocess, sys, tempfile
binary, batch, out = sys.argv[1], sys.argv[2], sys.argv[3]
course = sys.argv[4] if len(sys.argv) > 4 else "rmsnorm"
manifest = {}
for line in open(os.path.join(batch, "MANIFEST.tsv")):
    parts = line.rstrip("\n").split("\t")
    if len(parts) >= 4 and parts[2] in ("wrong", "right", "cheat"):
        manifest[(parts[0], parts[1])] = (parts[2], parts[3])
work = tempfile.mkdtemp(prefix="eval-")
subprocess.run([binary, "init", "ws"], cwd=work, check=True, capture_output=True)
ws = os.path.join(work, "ws")
env = dict(os.environ, TUTOR_LANG="en", NO_COLOR="1")
rows = []
titles = {}
for (ex, f), (kind, what) in sorted(manifest.items()):
    src = os.path.join(batch, ex, f)
    if not os.path.exists(src):
        continue
    shutil.copy(src, os.path.join(ws, "exercises", course, ex + ".rs"))
    exits, names, passed = [], [], []
    for seed in range(1, 6):
        p = subprocess.run([binary, "check", f"{course}/{ex}", "--seed", str(seed), "--format", "json", "--timeout", "20"],
                           cwd=ws, env=env, capture_output=True, text=True)
        exits.append(p.returncode)
        try:
            doc = json.loads(p.stdout)
            per = [e for e in doc.get("exercises", []) if e.get("exercise", "").endswith(ex)]
            ms = sorted({(m["id"] if isinstance(m, dict) else m) for e in per for m in e.get("mistakes", [])})
            for e in per:
                for m in e.get("mistakes", []):
                    if isinstance(m, dict):
                        t = m.get("title", {})
                        titles[m["id"]] = t.get("en", "") if isinstance(t, dict) else str(t)
            tests = doc.get("tests", [])
            passed.append(f"{sum(1 for t in tests if t.get('status') == 'pass')}/{len(tests)}")
        except Exception:
            ms, _ = ["?json"], passed.append("?")
        names.append(",".join(ms) or "-")
    rows.append((ex, f, kind, " ".join(map(str, exits)), " ".join(passed), " | ".join(names), what))
    print(rows[-1][:6], flush=True)
with open(out, "w") as o:
    o.write("exercise\tfile\tkind\texits\tpassed\tnames\twhat\n")
    for r in rows:
        o.write("\t".join(r) + "\n")
with open(out + ".titles", "w") as o:
    for k, v in sorted(titles.items()):
        o.write(f"{k}\t{v}\n")
