function h = metaopt_knapsack_from_file(path)
% METAOPT_KNAPSACK_FROM_FILE  A 0/1 knapsack instance from a file (the QIGA paper's format or
%   Pisinger's). Free h with metaopt_free(h).
  h = metaopt_mex('knapsack-file', path);
end
