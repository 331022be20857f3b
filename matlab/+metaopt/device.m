function n = device(number)
% METAOPT.DEVICE  The device in use (0-based index into metaopt.devices()); metaopt.device(n)
%   makes device n the one in use for the instances made afterwards.
  if nargin > 0
    metaopt_mex('set-device', number);
  end
  n = metaopt_mex('get-device');
end
