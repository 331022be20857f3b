function metaopt_de_print_bests(h)
% METAOPT_DE_PRINT_BESTS  Prints the best value of every island and the best solution over all
%   (the thesis's printBests; the format of metaopt.hpp's DEMultiPop::printBests, with 1-based
%   island numbers as everywhere in MATLAB):
%     population bests: v1 v2 ...
%     best: v in population p at x1 x2 ...
%   h: an instance of metaopt_de_params (metaopt.DE has the method printBests).
  bests = metaopt_mex('de-bests', h);
  fprintf('population bests:%s\n', sprintf(' %g', bests));
  if isempty(bests)
    fprintf('best: 0 in population 1 at\n');
    return;
  end
  [v, p] = min(bests);
  fprintf('best: %g in population %d at%s\n', v, p, sprintf(' %g', metaopt_mex('de-best', h, p)));
end
