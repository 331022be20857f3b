function r = metaopt_qiga_run(h, varargin)
% METAOPT_QIGA_RUN  QIGA on a knapsack instance (docs/specs/QIGA.md): many independent
%   populations. Options (a struct or name/value pairs): populations (1000), individuals (10),
%   generations (500), table ('gqa2000', 'qea2002', a table's text, or a cell array of those for
%   a tuning run), popsPerTable, poleSigns ('fixed', 'random'), repair ('index', 'random',
%   'greedy'), seed (1), target, timeLimit, devices, cpu (false), groupSize, launchPopulations,
%   start (a warm start: best strings, one per row, count x items; population q starts from row
%   mod(q, count) + 1), checkpoint (a file the run's whole state is written to when it ends and
%   every checkpointEvery seconds), resume (such a file: the run goes on as if it had never
%   stopped, with the same options; timeLimit may be larger).
%   r: bestValue, bestBits (populations x items logical), bestGeneration, generationsRun,
%   population (column vectors), stats and tableStats (count, mean, variance, median, min, max),
%   bestIndex (1-based), best, stopReason, elapsed, runsPerSecond, backend. Ctrl-C stops it with
%   the error metaopt:interrupted.
  r = metaopt_mex('qiga-run', h, metaopt_mex('options', varargin{:}));
end
