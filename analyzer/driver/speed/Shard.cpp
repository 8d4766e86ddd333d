//===- Shard.cpp ----------------------------------------------------------===//
#include "Shard.h"

#include <algorithm>
#include <numeric>

namespace distlint {

bool parseShard(llvm::StringRef Text, unsigned &Index, unsigned &Count,
                std::string &Error) {
  auto [K, N] = Text.split('/');
  if (K.getAsInteger(10, Index) || N.getAsInteger(10, Count) || Count == 0 ||
      Index == 0 || Index > Count) {
    Error = "--shard expects K/N with 1 <= K <= N (e.g. 2/4), not '" +
            Text.str() + "'";
    return false;
  }
  return true;
}

std::vector<size_t> selectShard(
    const std::vector<std::string> &Files, unsigned Index, unsigned Count,
    const std::function<std::optional<double>(const std::string &)> &Cost) {
  std::vector<std::optional<double>> Known(Files.size());
  std::vector<double> Values;
  for (size_t I = 0; I < Files.size(); ++I)
    if ((Known[I] = Cost ? Cost(Files[I]) : std::nullopt))
      Values.push_back(*Known[I]);
  double Default = 1;
  if (!Values.empty()) {
    std::nth_element(Values.begin(), Values.begin() + Values.size() / 2,
                     Values.end());
    Default = Values[Values.size() / 2];
  }
  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), 0);
  auto CostOf = [&](size_t I) { return Known[I].value_or(Default); };
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (CostOf(A) != CostOf(B))
      return CostOf(A) > CostOf(B);
    return Files[A] < Files[B];
  });
  std::vector<double> Load(Count, 0);
  std::vector<size_t> Mine;
  for (size_t I : Order) {
    unsigned Target = static_cast<unsigned>(
        std::min_element(Load.begin(), Load.end()) - Load.begin());
    Load[Target] += CostOf(I);
    if (Target + 1 == Index)
      Mine.push_back(I);
  }
  std::sort(Mine.begin(), Mine.end());
  return Mine;
}

} // namespace distlint
