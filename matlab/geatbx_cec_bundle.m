function Y = geatbx_cec_bundle(X, name)
% GEATBX_CEC_BUNDLE  The thesis's evaluation of a test function by name: Y = geatbx_cec_bundle(X, 'CEC05t').
%   Evaluates catalogue function NAME at each row of X (rows x D) on the device in use, as
%   METAOPT_EVALUATE(NAME, X) does. As in the thesis, the class of X picks the precision: a
%   single X is evaluated in single precision and Y is single; any other X in double (where the
%   device has fp64). Y is a rows x 1 column.
%     X = rand(1000, 10) * 200 - 100;
%     Y = geatbx_cec_bundle(X, 'CEC05t');
%     CEC05t = @(X) geatbx_cec_bundle(X, 'CEC05t');
%   See also METAOPT_EVALUATE.
  if isa(X, 'single')
    Y = single(metaopt_mex('evaluate', X, name, false, 'single'));
  else
    Y = metaopt_mex('evaluate', X, name, false, 'auto');
  end
end
