function state = metaopt_hc12_save_state(h)
% METAOPT_HC12_SAVE_STATE  The whole state of the instance's last metaopt_hc12_run (runs made,
%   counters, the best string and every run's figures, time taken; taken between runs) as a
%   uint8 column vector. metaopt_hc12_run(h, fun, struct('resume', state, ...)) with the same
%   options (a larger runs or timeLimit) continues it as if it had never stopped;
%   opts.checkpoint writes the same bytes to a file.
  state = metaopt_mex('hc12-save-state', h);
end
