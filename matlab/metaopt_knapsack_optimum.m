function o = metaopt_knapsack_optimum(h)
% METAOPT_KNAPSACK_OPTIMUM  The exact optimum of a knapsack instance: value, weight, bits
%   (logical, 1 x n) and items (1-based). An instance beyond the exact solver's state limit is
%   the error metaopt:invalidArgument naming max_states.
  o = metaopt_mex('knapsack-optimum', h);
end
