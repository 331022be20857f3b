function h = metaopt_qap_params(swaps, DF, maskOrder, startBit, bitLength)
% METAOPT_QAP_PARAMS  A QAP instance (HC12 over the qapswap2 encoding) from the combined matrix.
%   h = metaopt_qap_params(swaps, DF) with DF an n x n (or n x n x nSlices) matrix of class
%   int32, int64, uint32, uint64, single or double: below the diagonal the flow matrix, above
%   it the distance matrix (symmetric instances, zero diagonal), as in the thesis.
%   Optional: maskOrder (2), startBit (0), bitLength (0 = to the end of the string).
%   Free h with metaopt_free(h). Same as metaopt_mex('params', swaps, n, [], DF, nSlices, ...).
  if nargin < 3, maskOrder = 2; end
  if nargin < 4, startBit = 0; end
  if nargin < 5, bitLength = 0; end
  if ndims(DF) > 3 || size(DF, 1) ~= size(DF, 2)
    error('metaopt:badArgument', 'DF must be a square matrix (or an n x n x nSlices array), got %s', mat2str(size(DF)));
  end
  h = metaopt_mex('params', swaps, size(DF, 1), [], DF, size(DF, 3), maskOrder, startBit, bitLength);
end
