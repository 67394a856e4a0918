// L2-regularized logistic regression fitted by Newton's method on standardized features: a few
// dozen features and tens of thousands of examples converge in about ten steps, exactly and
// deterministically (no learning rate, no random start).

export interface LogisticFit {
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
}

/** L2 penalty on the standardized weights (not the bias), per example. */
const L2 = 1e-3;
const MAX_STEPS = 50;
const TOLERANCE = 1e-8;

/** Solves A x = b (A symmetric positive definite, as a penalized Hessian is) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(m[row][col]) > Math.abs(m[pivot][col])) pivot = row;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let row = col + 1; row < n; row++) {
      const f = m[row][col] / m[col][col];
      for (let k = col; k <= n; k++) m[row][k] -= f * m[col][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    let sum = m[row][n];
    for (let k = row + 1; k < n; k++) sum -= m[row][k] * x[k];
    x[row] = sum / m[row][row];
  }
  return x;
}

/** Fits P(y = 1 | x) = σ(bias + Σ wᵢ (xᵢ − meanᵢ) / scaleᵢ). */
export function fitLogistic(xs: readonly number[][], ys: readonly (0 | 1)[]): LogisticFit {
  const n = xs.length;
  const d = xs[0].length;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((sum, x) => sum + x[j], 0) / n);
  const scale = Array.from({ length: d }, (_, j) => Math.sqrt(xs.reduce((sum, x) => sum + (x[j] - mean[j]) ** 2, 0) / n) || 1);
  // Standardized, with a leading 1 for the bias.
  const zs = xs.map((x) => [1, ...x.map((v, j) => (v - mean[j]) / scale[j])]);
  let beta = new Array<number>(d + 1).fill(0);
  for (let step = 0; step < MAX_STEPS; step++) {
    const gradient = new Array<number>(d + 1).fill(0);
    const hessian = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const z = zs[i];
      let dot = 0;
      for (let j = 0; j <= d; j++) dot += beta[j] * z[j];
      const p = 1 / (1 + Math.exp(-dot));
      const w = Math.max(p * (1 - p), 1e-12);
      for (let j = 0; j <= d; j++) {
        gradient[j] += (p - ys[i]) * z[j];
        const wz = w * z[j];
        for (let k = j; k <= d; k++) hessian[j][k] += wz * z[k];
      }
    }
    for (let j = 0; j <= d; j++) {
      for (let k = 0; k < j; k++) hessian[j][k] = hessian[k][j];
      if (j > 0) {
        gradient[j] += L2 * n * beta[j];
        hessian[j][j] += L2 * n;
      }
    }
    const delta = solve(hessian, gradient);
    beta = beta.map((b, j) => b - delta[j]);
    if (Math.max(...delta.map(Math.abs)) < TOLERANCE) break;
  }
  return { mean, scale, weights: beta.slice(1), bias: beta[0] };
}
