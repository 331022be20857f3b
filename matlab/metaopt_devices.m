function [devices, current] = metaopt_devices()
% METAOPT_DEVICES  The OpenCL devices (index, kind, platform, name, ...) and the number of the
%   one in use. Choose another with metaopt_mex('set-device', n) before making instances.
  devices = metaopt_mex('devices');
  current = metaopt_mex('get-device');
end
