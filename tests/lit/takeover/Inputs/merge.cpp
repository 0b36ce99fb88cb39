// Many template instantiations with identical machine code: function merging shrinks this
// file, so a candidate wins and smartcc must ship it.
#include <cstdio>
#include <vector>
template <typename T> struct Box {
  std::vector<T> Items;
  void add(T V) { Items.push_back(V); }
  size_t count() const { return Items.size(); }
  T sum() const { T S = 0; for (T V : Items) S += V; return S; }
};
template <typename T> long use(int N) {
  Box<T> B;
  for (int I = 0; I < N; ++I) B.add(T(I));
  return long(B.sum()) + long(B.count());
}
int main(int argc, char **) {
  long R = use<int>(argc + 10) + use<unsigned>(argc + 11) + use<long>(argc + 12) +
           use<unsigned long>(argc + 13) + use<short>(argc + 3) + use<unsigned short>(argc + 4);
  std::printf("%ld\n", R);
  return 0;
}
