function state = metaopt_qap_save_state(h)
% METAOPT_QAP_SAVE_STATE  The whole state of the instance's last iterated HC12 solve
%   (metaopt_qap_solve: runs made, counters, the best permutation and every run's figures, the
%   random restarts' position, time taken; taken between runs) as a uint8 column vector.
%   metaopt_qap_solve(h, struct('resume', state, ...)) with the same options (a larger
%   opts.runs or opts.timeLimit) continues it as if it had never stopped; opts.checkpoint
%   writes the same bytes to a file.
  state = metaopt_mex('qap-save-state', h);
end
