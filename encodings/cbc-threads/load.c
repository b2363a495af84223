/* Loads a dumped problem (column-major arrays) into CBC's C interface and solves it with
   the parameters given on the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <coin/Cbc_C_Interface.h>
static double *rd(FILE *f, int k) { double *a = malloc((k + 1) * sizeof *a); for (int i = 0; i < k; i++) fscanf(f, "%lf", &a[i]); return a; }
int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "r"); int n, m, nz; fscanf(f, "%d %d %d", &n, &m, &nz);
  int *start = malloc((n + 1) * sizeof *start), *index = malloc(nz * sizeof *index);
  for (int i = 0; i <= n; i++) fscanf(f, "%d", &start[i]);
  for (int i = 0; i < nz; i++) fscanf(f, "%d", &index[i]);
  double *value = rd(f, nz), *lo = rd(f, n), *up = rd(f, n), *obj = rd(f, n), *rlo = rd(f, m), *rup = rd(f, m);
  Cbc_Model *b = Cbc_newModel();
  Cbc_loadProblem(b, n, m, start, index, value, lo, up, obj, rlo, rup);
  for (int j = 0; j < n; j++) Cbc_setInteger(b, j);
  Cbc_setLogLevel(b, 0);
  for (int i = 2; i + 1 < argc; i += 2) Cbc_setParameter(b, argv[i], argv[i + 1]);
  Cbc_solve(b);
  printf("secondary %d objective %.1f\n", Cbc_secondaryStatus(b), Cbc_getObjValue(b));
  if (getenv("WRITE")) Cbc_writeMps(b, getenv("WRITE"));
  return 0;
}
