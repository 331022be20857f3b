function h = metaopt_knapsack_from_arrays(weights, profits, capacity)
% METAOPT_KNAPSACK_FROM_ARRAYS  A 0/1 knapsack instance from real weights (> 0), profits (>= 0)
%   and a capacity, each with at most 9 decimals. Free h with metaopt_free(h).
  h = metaopt_mex('knapsack-arrays', weights, profits, capacity);
end
