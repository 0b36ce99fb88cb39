#!/usr/bin/env python3
"""What the compiler's ship rules cost on a build: from smartcc's decision logs (SMARTCC_LOG;
link-bench keeps them as OUT/logs/PROJECT.ISA.smartcc.decisions.jsonl), the bytes clang's
objects had, the bytes shipped, and the bytes the smallest refused candidate would have saved
where a rule (code_for_unwind, ram_growth, new_undefined_symbol) refused one, by rule and by
the refused candidate's sequence. In the metric's unit (`value`: image bytes with the unwind
search-table entries).

  python3 scripts/ship-rule-cost.py LOG.jsonl... [--top 8]
"""
import argparse, collections, json, sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--top", type=int, default=8)
    a = ap.parse_args()
    clang = shipped = best = tus = 0
    by_rule, rule_bytes = collections.Counter(), collections.Counter()
    by_seq, seq_bytes = collections.Counter(), collections.Counter()
    for path in a.logs:
        for line in open(path):
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("kind", "tu") != "tu":
                continue
            base = r.get("baseline", {}).get("value")
            if not base:
                continue
            tus += 1
            ship = r.get("shipped_value") or base
            clang += base
            shipped += ship
            refused = [c for c in r.get("candidates", [])
                       if c.get("rejected") and c.get("value") and c["value"] < ship]
            if refused:
                c = min(refused, key=lambda c: c["value"])
                saved = ship - c["value"]
                by_rule[c["rejected"]] += 1
                rule_bytes[c["rejected"]] += saved
                name = c.get("sequence") or c["name"]
                by_seq[name] += 1
                seq_bytes[name] += saved
                ship = c["value"]
            best += ship
    if not tus:
        sys.exit("ship-rule-cost.py: error: no translation-unit decisions in the logs")
    print("%d TUs: clang %d, shipped %d (clang / shipped %.4f); with the smallest refused "
          "candidate of each TU: %d (%.4f)" % (tus, clang, shipped, clang / shipped, best,
                                                clang / best))
    for rule, n in by_rule.most_common():
        print("  %-22s refused the smallest candidate of %4d TUs: %d bytes" %
              (rule, n, rule_bytes[rule]))
    print("  refused candidates, by bytes:")
    for name, b in seq_bytes.most_common(a.top):
        print("    %7d bytes in %4d TUs  %s" % (b, by_seq[name], name))


if __name__ == "__main__":
    main()
