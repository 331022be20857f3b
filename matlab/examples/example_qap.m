% EXAMPLE_QAP  A QAPLIB instance solved by the robust tabu search and by iterated HC12, with the
%   metaopt.QAP class (MATLAB and GNU Octave). Run from anywhere: run('matlab/examples/example_qap.m')
here = fileparts(mfilename('fullpath'));
addpath(fileparts(here));  % metaopt_mex and the +metaopt package
data = getenv('METAOPT_DATA_DIR');
if isempty(data)
  data = fullfile(here, '..', '..', 'data');
end

q = metaopt.QAP(fullfile(data, 'qaplib', 'had12.dat'), 'swaps', 12);
[x, fval, info] = q.tabuSearch('chains', 8, 'timeLimit', 20, 'target', 1652, 'seed', 1);
fprintf('had12, robust tabu search: cost %d (best known %d), gap %.2f %%, %.2f s, stopped by %s\n', ...
        fval, info.bks, info.gapPercent, info.seconds, info.stopReason);
fprintf('  permutation: %s\n', mat2str(x));

[x, fval, info] = q.solve('timeLimit', 20, 'runs', 0, 'target', 1652, 'start', 'glb');
fprintf('had12, iterated HC12: cost %d after %d runs (%s data)\n', fval, info.runs, info.precision);
example_ok = fval == 1652;
% q frees its library instance when it goes (clear q, or the end of a function)
clear q
