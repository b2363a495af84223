# solution of feup-lekinasa-4x4-01.tt: published in the same repo, plog-proj2/puzzle_solutions.pl, puzzle_solution(1, 1, _)
# checked with an independent CP model: satisfies the rule, matches the givens, and is the unique solution (unique)
trickytriple 4 4
3 1 1 2
2 1 1 3
3 2 3 2
2 2 3 3
