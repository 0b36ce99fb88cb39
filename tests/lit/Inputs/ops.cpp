// ops.cpp: a table of element-wise operations over integer vectors, written the way generic
// C++ code ends up: many small, nearly identical functions (hand-written and stamped out by
// templates for several element types), std::function wrappers and capturing lambdas.
//
// Size-optimizer interest: function merging (template instantiations for int32_t/uint32_t
// and int64_t/uint64_t often compile to identical code), identical lambda bodies, and many
// tiny callees. Prints a checksum per operation and element type.
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace {

// ---- Hand-written scalar helpers: same shape, different constant or operator. ----
__attribute__((noinline)) int32_t addOne(int32_t X) { return X + 1; }
__attribute__((noinline)) int32_t addTwo(int32_t X) { return X + 2; }
__attribute__((noinline)) int32_t addThree(int32_t X) { return X + 3; }
__attribute__((noinline)) int32_t timesThree(int32_t X) { return X * 3; }
__attribute__((noinline)) int32_t timesFive(int32_t X) { return X * 5; }
__attribute__((noinline)) int32_t timesSeven(int32_t X) { return X * 7; }
__attribute__((noinline)) int32_t clampByte(int32_t X) { return X < 0 ? 0 : X > 255 ? 255 : X; }
__attribute__((noinline)) int32_t clampShort(int32_t X) {
  return X < -32768 ? -32768 : X > 32767 ? 32767 : X;
}
__attribute__((noinline)) uint32_t clampByteU(uint32_t X) { return X > 255 ? 255 : X; }

// ---- Templates stamped out per element type. ----
// Arithmetic goes through uint64_t and wraps on conversion back, so no signed overflow.
template <typename T> T wrap(uint64_t X) { return static_cast<T>(X); }
template <typename T> uint64_t u64(T X) { return static_cast<uint64_t>(X); }

template <typename T> struct Vec {
  std::vector<T> Data;
  explicit Vec(size_t N) : Data(N) {}
};

template <typename T> __attribute__((noinline)) void fillRamp(Vec<T> &V, T Start, T Step) {
  T X = Start;
  for (auto &E : V.Data) {
    E = X;
    X = wrap<T>(u64(X) + u64(Step));
  }
}

template <typename T> __attribute__((noinline)) void addInPlace(Vec<T> &A, const Vec<T> &B) {
  for (size_t I = 0; I < A.Data.size(); ++I)
    A.Data[I] = wrap<T>(u64(A.Data[I]) + u64(B.Data[I]));
}

template <typename T> __attribute__((noinline)) void subInPlace(Vec<T> &A, const Vec<T> &B) {
  for (size_t I = 0; I < A.Data.size(); ++I)
    A.Data[I] = wrap<T>(u64(A.Data[I]) - u64(B.Data[I]));
}

template <typename T> __attribute__((noinline)) void xorInPlace(Vec<T> &A, const Vec<T> &B) {
  for (size_t I = 0; I < A.Data.size(); ++I)
    A.Data[I] = static_cast<T>(A.Data[I] ^ B.Data[I]);
}

template <typename T> __attribute__((noinline)) void rotate(Vec<T> &A, unsigned By) {
  if (A.Data.empty())
    return;
  std::vector<T> Tmp(A.Data.size());
  for (size_t I = 0; I < A.Data.size(); ++I)
    Tmp[(I + By) % A.Data.size()] = A.Data[I];
  A.Data.swap(Tmp);
}

template <typename T> __attribute__((noinline)) uint64_t checksum(const Vec<T> &A) {
  uint64_t H = 1469598103934665603ull;
  for (T E : A.Data) {
    H ^= static_cast<uint64_t>(E);
    H *= 1099511628211ull;
  }
  return H;
}

template <typename T, typename F> __attribute__((noinline)) void mapInPlace(Vec<T> &A, F Fn) {
  for (auto &E : A.Data)
    E = wrap<T>(Fn(E));
}

template <typename T> using Op = std::function<void(Vec<T> &)>;

// One named pipeline of operations per element type.
template <typename T> std::vector<std::pair<std::string, Op<T>>> pipeline(size_t N) {
  auto Other = std::make_shared<Vec<T>>(N);
  fillRamp<T>(*Other, T(3), T(5));
  std::vector<std::pair<std::string, Op<T>>> Ops;
  Ops.push_back({"add", [Other](Vec<T> &V) { addInPlace(V, *Other); }});
  Ops.push_back({"sub", [Other](Vec<T> &V) { subInPlace(V, *Other); }});
  Ops.push_back({"xor", [Other](Vec<T> &V) { xorInPlace(V, *Other); }});
  Ops.push_back({"rot3", [](Vec<T> &V) { rotate(V, 3); }});
  Ops.push_back({"rot5", [](Vec<T> &V) { rotate(V, 5); }});
  Ops.push_back({"dbl", [](Vec<T> &V) { mapInPlace(V, [](T X) { return u64(X) + u64(X); }); }});
  Ops.push_back({"sq", [](Vec<T> &V) { mapInPlace(V, [](T X) { return u64(X) * u64(X); }); }});
  Ops.push_back({"neg", [](Vec<T> &V) { mapInPlace(V, [](T X) { return 0 - u64(X); }); }});
  Ops.push_back({"inc", [](Vec<T> &V) { mapInPlace(V, [](T X) { return u64(X) + 1; }); }});
  T Bias = T(7);
  Ops.push_back({"bias", [Bias](Vec<T> &V) { mapInPlace(V, [Bias](T X) { return u64(X) + u64(Bias); }); }});
  return Ops;
}

template <typename T> uint64_t runAll(const char *TypeName) {
  const size_t N = 97;
  Vec<T> V(N);
  fillRamp<T>(V, T(1), T(2));
  uint64_t Total = 0;
  for (auto &[Name, Fn] : pipeline<T>(N)) {
    Fn(V);
    uint64_t C = checksum(V);
    std::printf("%-8s %-5s %016llx\n", TypeName, Name.c_str(), static_cast<unsigned long long>(C));
    Total = Total * 31 + C;
  }
  return Total;
}

// ---- A dispatch table of the scalar helpers, used through function pointers. ----
struct Named {
  const char *Name;
  int32_t (*Fn)(int32_t);
};

const std::array<Named, 8> Scalars = {{
    {"addOne", addOne},
    {"addTwo", addTwo},
    {"addThree", addThree},
    {"timesThree", timesThree},
    {"timesFive", timesFive},
    {"timesSeven", timesSeven},
    {"clampByte", clampByte},
    {"clampShort", clampShort},
}};

} // namespace

int main() {
  uint64_t T = 0;
  T ^= runAll<int8_t>("int8");
  T ^= runAll<uint8_t>("uint8");
  T ^= runAll<int16_t>("int16");
  T ^= runAll<uint16_t>("uint16");
  T ^= runAll<int32_t>("int32");
  T ^= runAll<uint32_t>("uint32");
  T ^= runAll<int64_t>("int64");
  T ^= runAll<uint64_t>("uint64");

  std::vector<int32_t> In(40);
  std::iota(In.begin(), In.end(), -20);
  for (const Named &S : Scalars) {
    int64_t Sum = 0;
    for (int32_t X : In)
      Sum += S.Fn(X * 1000);
    std::printf("%-10s %lld\n", S.Name, static_cast<long long>(Sum));
  }
  uint32_t U = 0;
  for (uint32_t X = 0; X < 1000; X += 37)
    U += clampByteU(X);
  std::printf("clampByteU sum %u\n", U);
  std::printf("total %016llx\n", static_cast<unsigned long long>(T));
  return 0;
}
