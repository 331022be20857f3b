function y = metaopt_evaluate(name, X, varargin)
% METAOPT_EVALUATE  A catalogue function by name at the rows of X, on the device or the CPU.
%   y = metaopt_evaluate(name, X) evaluates the test function NAME ('F1'..'F12', 'CEC04'..'CEC10',
%   'CEC04t'..'CEC10t'; case-insensitive) at each row of X (rows x D, one point per row) on the
%   device in use, through the catalogue's OpenCL kernel; y is a rows x 1 double column.
%   y = metaopt_evaluate(name, X, 'cpu', true) evaluates on the host with the library's f64
%   reference code. 'precision' ('auto', 'single' or 'double') picks the device precision: auto
%   is double where the device has fp64; the CPU computes in double and refuses 'single'.
%   Errors: NaN or infinite entries of X, no rows, an unknown name, or a D the function lacks
%   (CEC04t..CEC10t take D = 2 or 10) raise metaopt:* errors naming the argument.
%   See also GEATBX_CEC_BUNDLE.
  cpu = false;
  precision = 'auto';
  if mod(numel(varargin), 2) ~= 0
    error('metaopt:badArgument', 'metaopt_evaluate: options come in name, value pairs');
  end
  for i = 1:2:numel(varargin)
    key = varargin{i};
    if ~ischar(key)
      error('metaopt:badOption', 'metaopt_evaluate: option names must be strings');
    end
    switch lower(key)
      case 'cpu'
        cpu = varargin{i + 1};
      case 'precision'
        precision = varargin{i + 1};
      otherwise
        error('metaopt:badOption', 'metaopt_evaluate: unknown option ''%s'' (cpu, precision)', key);
    end
  end
  y = metaopt_mex('evaluate', X, name, cpu, precision);
end
