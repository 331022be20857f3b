function x = metaopt_de_best(h, island)
% METAOPT_DE_BEST  The best member of island (1-based), 1 x dims (the thesis's getBest).
  x = metaopt_mex('de-best', h, island);
end
