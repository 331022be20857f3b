function [cost, order, K, lastIteration] = metaopt_qap_run(h, initOrder, initKernel)
% METAOPT_QAP_RUN  One HC12 run (the thesis's 'run'): from base permutation initOrder (1-based,
%   [] = identity) and string initKernel (2*swaps Gray-coded words, [] = zeros) to a local
%   optimum. order is 1-based: facility i goes to location order(i); K is the final string,
%   relative to initOrder: metaopt_qap_run(h, initOrder, K) continues from the result.
%   Compatibility wrapper; metaopt.QAP's run returns [x, fval, info].
  if nargin < 2, initOrder = []; end
  if nargin < 3, initKernel = []; end
  [cost, order, K, lastIteration] = metaopt_mex('run', h, initOrder, initKernel);
end
