#!/usr/bin/env python3
"""Solve an LP or MPS file with HiGHS (the highspy package) and write HiGHS's raw solution
file, as `highs --model_file MODEL --solution_file SOLUTION` would. `sokuc decode` reads it.

Usage: python3 scripts/highs-solve.py MODEL SOLUTION [TIME_LIMIT_SECONDS]
"""
import sys

import highspy


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    model, solution = sys.argv[1], sys.argv[2]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    if len(sys.argv) == 4:
        h.setOptionValue("time_limit", float(sys.argv[3]))
    if h.readModel(model) != highspy.HighsStatus.kOk:
        print(f"highs-solve: HiGHS could not read {model}", file=sys.stderr)
        return 1
    h.run()
    h.writeSolution(solution, 0)
    print(h.modelStatusToString(h.getModelStatus()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
