function [devs, current] = devices()
% METAOPT.DEVICES  The OpenCL devices (struct array: index, kind, platform, name, vendor,
%   version, globalMemBytes, computeUnits, maxWorkGroupSize, fp64) and the index of the one in
%   use (0-based, as metaopt.device takes it).
  devs = metaopt_mex('devices');
  current = metaopt_mex('get-device');
end
