function x = metaopt_de_x(h, island, member)
% METAOPT_DE_X  Member member of island island (both 1-based), 1 x dims (the thesis's getX).
  x = metaopt_mex('de-x', h, island, member);
end
