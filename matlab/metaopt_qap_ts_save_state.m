function state = metaopt_qap_ts_save_state(h)
% METAOPT_QAP_TS_SAVE_STATE  The whole state of the instance's last robust tabu search
%   (metaopt_qap_ts_solve: chains, tabu matrices, elite pool, random-number counters,
%   counters, time taken) as a uint8 column vector. metaopt_qap_ts_solve(h, struct('resume',
%   state, ...)) with the same options (a larger opts.iterations or opts.timeLimit) continues
%   it as if it had never stopped; opts.checkpoint writes the same bytes to a file.
  state = metaopt_mex('qap-ts-save-state', h);
end
