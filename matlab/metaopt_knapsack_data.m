function d = metaopt_knapsack_data(h)
% METAOPT_KNAPSACK_DATA  The data of a knapsack instance: n, weights, profits, capacity, scale
%   (10^decimals of the exact integer form), name.
  d = metaopt_mex('knapsack-data', h);
end
