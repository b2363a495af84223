kakuro 3 3
X 4\ 3\
\4 3 1
\3 1 2
