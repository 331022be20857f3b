function h = metaopt_hc12_params(nParam, nBitParam, dodParam, domain, maskOrder, startBit, bitLength)
% METAOPT_HC12_PARAMS  A general HC12 instance (thesis Table 1, 'params' / 'params:noR').
%   h = metaopt_hc12_params(nParam, nBitParam, dodParam) with nBitParam one value or one per
%   parameter, dodParam [a b] or an nParam x 2 matrix of intervals. domain: 'real' (default),
%   'integer' or 'binary' (the objective reads the integers I or the bit strings B: params:noR);
%   double precision is the default where the device has fp64: append ',single' (e.g.
%   'real,single') for single, ',double' to insist on double. Compatibility wrapper: metaopt.HC12
%   is the class. Optional maskOrder (2),
%   startBit (0), bitLength (0 = to the end). The objective is given to metaopt_hc12_run.
  if nargin < 4 || isempty(domain), domain = 'real'; end
  if nargin < 5, maskOrder = 2; end
  if nargin < 6, startBit = 0; end
  if nargin < 7, bitLength = 0; end
  parts = strsplit(domain, ',');
  opts = {};
  switch parts{1}
    case 'real'
    case 'integer', opts{end+1} = 'noR';
    case 'binary', opts(end+1:end+2) = {'noR', 'binary'};
    otherwise, error('metaopt:badArgument', 'domain must be real, integer or binary, got %s', parts{1});
  end
  opts = [opts parts(2:end)];
  mode = 'params';
  if ~isempty(opts), mode = [mode ':' strjoin(opts, ',')]; end
  h = metaopt_mex(mode, nParam, nBitParam, dodParam, maskOrder, startBit, bitLength);
end
