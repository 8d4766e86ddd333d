// distlint test declarations: c10d::PrefixStore (a namespaced view of a
// store; it uses the wrapped store's timeout).
#pragma once
#include <c10/util/intrusive_ptr.h>
#include <torch/csrc/distributed/c10d/Store.hpp>

namespace c10d {

class TORCH_API PrefixStore : public Store {
public:
  explicit PrefixStore(const std::string &prefix,
                       c10::intrusive_ptr<Store> store);
  ~PrefixStore() override {}

  void set(const std::string &key, const std::vector<uint8_t> &value) override;
  std::vector<uint8_t> compareSet(const std::string &key,
                                  const std::vector<uint8_t> &expectedValue,
                                  const std::vector<uint8_t> &desiredValue) override;
  std::vector<uint8_t> get(const std::string &key) override;
  int64_t add(const std::string &key, int64_t value) override;
  bool deleteKey(const std::string &key) override;
  int64_t getNumKeys() override;
  bool check(const std::vector<std::string> &keys) override;
  void wait(const std::vector<std::string> &keys) override;
  void wait(const std::vector<std::string> &keys,
            const std::chrono::milliseconds &timeout) override;
  const std::chrono::milliseconds &getTimeout() const noexcept override;
  void setTimeout(const std::chrono::milliseconds &timeout) override;
  void watchKey(const std::string &key, WatchKeyCallback callback) override;
  c10::intrusive_ptr<Store> getUnderlyingStore();
};

} // namespace c10d
