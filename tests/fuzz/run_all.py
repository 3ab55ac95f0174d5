"""Run every fuzz harness for a fixed time, one after the other (one core),
and print executions, coverage and findings per harness.

    python tests/fuzz/run_all.py --seconds 600 --work /tmp/fastxfen-fuzz
    python tests/fuzz/run_all.py --seconds 60 --only decode encode

Each harness starts from the committed seeds in corpus/<harness>/ and keeps
its growing corpus and any finding (crash-*, the input that broke a
property) in WORK/<harness>/, outside the repository.  Extra arguments after
"--" go to libFuzzer.  Exits 1 if any harness reported a finding.
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESSES = [
    "normalize_str",
    "normalize_bytes",
    "arrow",
    "encode",
    "decode",
    "pgn_scan",
    "binary_columns",
    "arrow_offsets",
    "records",
]


def run(name, seconds, work, extra):
    corpus = os.path.join(work, name, "corpus")
    os.makedirs(corpus, exist_ok=True)
    log_path = os.path.join(work, name, "log.txt")
    cmd = [
        sys.executable,
        os.path.join(HERE, f"fuzz_{name}.py"),
        corpus,
        os.path.join(HERE, "corpus", name),
        f"-max_total_time={seconds}",
        "-print_final_stats=1",
        "-timeout=60",
        "-rss_limit_mb=4096",
        f"-artifact_prefix={os.path.join(work, name)}{os.sep}",
        *extra,
    ]
    started = time.time()
    with open(log_path, "w") as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    elapsed = time.time() - started
    text = open(log_path, errors="replace").read()
    execs = re.findall(r"stat::number_of_executed_units: (\d+)", text)
    covs = re.findall(r"cov: (\d+) ft: (\d+)", text)
    crashes = sorted(
        f
        for f in os.listdir(os.path.join(work, name))
        if f.startswith(("crash-", "timeout-", "oom-", "leak-"))
    )
    return {
        "harness": name,
        "seconds": round(elapsed),
        "executions": int(execs[-1]) if execs else 0,
        "coverage": f"cov {covs[-1][0]} ft {covs[-1][1]}" if covs else "-",
        "corpus": len(os.listdir(corpus)),
        "exit": rc,
        "findings": crashes,
        "log": log_path,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=600, help="per harness")
    parser.add_argument(
        "--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "fastxfen-fuzz")
    )
    parser.add_argument("--only", nargs="*", choices=HARNESSES, default=HARNESSES)
    parser.add_argument(
        "--replay",
        action="store_true",
        help="only run every input of WORK/<harness>/corpus and the seeds "
        "once (-runs=0), e.g. under the sanitizer build",
    )
    parser.add_argument("libfuzzer", nargs="*", help="after --: passed to libFuzzer")
    args = parser.parse_args(argv)
    results = []
    for name in args.only:
        extra = args.libfuzzer + (["-runs=0"] if args.replay else [])
        r = run(name, args.seconds, args.work, extra)
        results.append(r)
        print(
            f"{r['harness']:16} {r['seconds']:6d} s {r['executions']:11,d} runs  "
            f"{r['coverage']:18} corpus {r['corpus']:5d}  exit {r['exit']}  "
            f"findings {r['findings'] or 'none'}",
            flush=True,
        )
    total = sum(r["executions"] for r in results)
    print(f"{'total':16} {sum(r['seconds'] for r in results):6d} s {total:11,d} runs")
    return 1 if any(r["findings"] or r["exit"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
