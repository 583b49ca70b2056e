#include "fem/study/power_law_fit.hpp"

#include <algorithm>
#include <cmath>

namespace fem::study {

PowerFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
    if (x[i] > 0 && y[i] > 0) {
      lx.push_back(std::log(x[i]));
      ly.push_back(std::log(y[i]));
    }
  PowerFit fit;
  fit.points = static_cast<int>(lx.size());
  if (fit.points < 2) return fit;
  const double n = fit.points;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    mx += lx[i] / n;
    my += ly[i] / n;
  }
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    sxx += (lx[i] - mx) * (lx[i] - mx);
    sxy += (lx[i] - mx) * (ly[i] - my);
    syy += (ly[i] - my) * (ly[i] - my);
  }
  if (sxx <= 0) {  // every x the same: no slope to speak of
    fit.points = 1;
    return fit;
  }
  fit.exponent = sxy / sxx;
  fit.coefficient = std::exp(my - fit.exponent * mx);
  fit.r_squared = syy > 0 ? sxy * sxy / (sxx * syy) : 1.0;
  return fit;
}

}  // namespace fem::study
