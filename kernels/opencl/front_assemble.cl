// The frontal method's assembly step: gather the old front and the element batch into the new
// front (lower triangle), one work-item per entry, dimension 0 along a row of the new front.
// indices[i] is row i's index into the old front, indices[n + i] its index into the batch.
// Built with REAL = double only where it is used.

__kernel void front_assemble(__global const REAL* from, long from_off, long ld_from,
                             __global const REAL* batch, long batch_off, long ld_batch,
                             __global const int* indices, __global REAL* to, long to_off,
                             long ld_to, int n) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j > i) return;
  const int fi = indices[i], fj = indices[j], bi = indices[n + i], bj = indices[n + j];
  REAL v = 0;
  if (fi >= 0 && fj >= 0) v = from[from_off + max(fi, fj) * ld_from + min(fi, fj)];
  if (bi >= 0 && bj >= 0) v += batch[batch_off + max(bi, bj) * ld_batch + min(bi, bj)];
  to[to_off + i * ld_to + j] = v;
}
