function state = metaopt_bh_save_state(h)
% METAOPT_BH_SAVE_STATE  The whole state of the chains of metaopt_bh_create (every chain, the
%   counters, the solve's course) as a uint8 column, from which metaopt_bh_solve with
%   opts.resume continues exactly (on chains made with the same objective, box and options).
  state = metaopt_mex('bh-save-state', h);
end
