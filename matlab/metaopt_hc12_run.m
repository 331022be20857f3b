function [value, x, result] = metaopt_hc12_run(h, fun, opts)
% METAOPT_HC12_RUN  Runs general HC12 (the thesis's 'run') on objective fun: a function handle
%   or m-function name taking the rows x nParam matrix of one iteration and returning its rows
%   values; '@NAME' for a catalogue function ('@F1', '@CEC05t'), or '@FILE.cl' for OpenCL C.
%   opts (all optional): coding 'GC'|'BC', runs (1), start ([] random, 'bit-zeros' or a vector
%   of nParam reals), sense 'min'|'max', taboo (false), activationLimit, limitRows (tabu list
%   length, 100), seed (1), maxIterations, aspiration, tabuIterations, noImprove, timeLimit;
%   checkpoint (a file the runs write their whole state to, between runs, when the call ends
%   and every checkpointEvery seconds), checkpointEvery, resume (such a file's path or the bytes
%   of metaopt_hc12_save_state: the runs continue the saved ones, whose options they must have;
%   runs and timeLimit may be larger).
%   value: the best objective value; x: its reals (real domain) or integers (noR);
%   result: string (K_GC), integers, reals, iterations, evaluations, seconds, runValues, ...,
%   precision. Compatibility form ([value, x, result]); metaopt.HC12 returns [x, fval, info].
  if nargin < 3, opts = struct(); end
  opts = metaopt_mex('options', opts);  % lowerCamelCase names; snake_case ones are aliases
  get = @(name, default) field_or(opts, name, default);
  mode = 'run';
  if get('taboo', false), mode = 'run:taboo'; end
  args = {h, get('coding', 'GC'), get('runs', 1), get('start', []), fun, get('sense', 'min'), ...
          get('activationLimit', []), get('limitRows', [])};
  names = {'seed', 'maxIterations', 'aspiration', 'tabuIterations', 'noImprove', 'timeLimit', ...
           'checkpoint', 'checkpointEvery', 'resume'};
  for k = 1:numel(names)
    if isfield(opts, names{k})
      args(end+1:end+2) = {names{k}, opts.(names{k})};
    end
  end
  [value, x, result] = metaopt_mex(mode, args{:});
end

function v = field_or(s, name, default)
  if isfield(s, name), v = s.(name); else, v = default; end
end
