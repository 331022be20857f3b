function metaopt_de_func_data(h, data)
% METAOPT_DE_FUNC_DATA  The data buffer of an OpenCL C objective (mode 'de-func-data'): the raw
%   bytes of the numeric array data (e.g. 1.5 for one double under opts.double, single(1.5) for
%   one float; [] empties it). Set it after metaopt_de_init, which empties the buffer and
%   evaluates its first populations without it; a change takes effect from the next
%   generation's trials.
  metaopt_mex('de-func-data', h, data);
end
