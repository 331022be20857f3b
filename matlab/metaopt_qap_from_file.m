function h = metaopt_qap_from_file(path, swaps, maskOrder)
% METAOPT_QAP_FROM_FILE  A QAP instance from a QAPLIB .dat file (a BKS.csv beside it gives
%   metaopt_qap_solve its gap, and opts.start = 'glb' works). Free h with metaopt_free(h).
  if nargin < 3, maskOrder = 2; end
  h = metaopt_mex('params-file', path, swaps, maskOrder);
end
