function result = metaopt_qap_ts_solve(h, opts)
% METAOPT_QAP_TS_SOLVE  The robust tabu search (Taillard) on a QAP instance: opts.chains
%   independent chains (default: 4 per compute unit on a GPU, one per core otherwise) of
%   opts.iterations iterations each (default 100000; with only opts.timeLimit, no count),
%   stopping at opts.target. Also opts.seed, opts.tenure ('cubic' or 'uniform'),
%   opts.eliteSize, opts.stagnation, opts.perturbation ([min max] swaps), opts.crossover (the
%   share of restarts, 0 to 1, from a child of two pool members), opts.launchIterations,
%   opts.start (warm starts: a k x n matrix, one 1-based
%   permutation per row, for the first k chains), opts.cpu (true: the CPU backend for this
%   call), opts.checkpoint (a file the search writes its whole state to when it ends and every
%   opts.checkpointEvery seconds) and opts.resume (such a file, or the bytes of
%   metaopt_qap_ts_save_state: the search continues as if it had never stopped) and
%   opts.fitChains (default true: when opts.chains chains would not fit the memory of the
%   device, or of the host on the CPU backend, run as many as fit; false: an error). nElements
%   runs up to 2048 (HC12, metaopt_qap_solve, up to 256). result: cost, permutation (1-based),
%   chains, chainsRequested, iterations (per chain), launches, restarts, seconds,
%   secondsToBest, targetReached, bks and gapPercent (NaN without a BKS), backend.
  if nargin < 2, opts = struct(); end
  result = metaopt_mex('qap-ts-solve', h, opts);
end
