// shapes.cpp: a small scene description language: virtual shape classes, a template
// registry, std::map / std::vector / std::string / std::unique_ptr, and exceptions for errors.
//
// Size-optimizer interest: vtables and virtual dispatch, many template instantiations
// (containers, the registry), exception landing pads and unwind tables, and std::string
// formatting. Prints each scene's summary and the errors of the invalid ones.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace scene {

class ParseError : public std::runtime_error {
public:
  ParseError(int Line, const std::string &Msg)
      : std::runtime_error("line " + std::to_string(Line) + ": " + Msg), Line(Line) {}
  int line() const { return Line; }

private:
  int Line;
};

struct Box {
  long X0, Y0, X1, Y1;
  long area() const { return (X1 - X0) * (Y1 - Y0); }
};

class Shape {
public:
  explicit Shape(std::string Name) : Name(std::move(Name)) {}
  virtual ~Shape() = default;
  virtual const char *kind() const = 0;
  // Areas and perimeters in integer milli-units, so output is exact on every target.
  virtual long area() const = 0;
  virtual long perimeter() const = 0;
  virtual Box bounds() const = 0;
  virtual void translate(long DX, long DY) = 0;
  const std::string &name() const { return Name; }

private:
  std::string Name;
};

class Rect : public Shape {
public:
  Rect(std::string N, long X, long Y, long W, long H)
      : Shape(std::move(N)), X(X), Y(Y), W(W), H(H) {
    if (W <= 0 || H <= 0)
      throw std::invalid_argument("rectangle needs a positive size");
  }
  const char *kind() const override { return "rect"; }
  long area() const override { return W * H; }
  long perimeter() const override { return 2 * (W + H); }
  Box bounds() const override { return {X, Y, X + W, Y + H}; }
  void translate(long DX, long DY) override { X += DX; Y += DY; }

protected:
  long X, Y, W, H;
};

class Square final : public Rect {
public:
  Square(std::string N, long X, long Y, long S) : Rect(std::move(N), X, Y, S, S) {}
  const char *kind() const override { return "square"; }
};

class Circle final : public Shape {
public:
  Circle(std::string N, long X, long Y, long R) : Shape(std::move(N)), X(X), Y(Y), R(R) {
    if (R <= 0)
      throw std::invalid_argument("circle needs a positive radius");
  }
  const char *kind() const override { return "circle"; }
  // pi approximated as 355/113.
  long area() const override { return R * R * 355 / 113; }
  long perimeter() const override { return 2 * R * 355 / 113; }
  Box bounds() const override { return {X - R, Y - R, X + R, Y + R}; }
  void translate(long DX, long DY) override { X += DX; Y += DY; }

private:
  long X, Y, R;
};

class Triangle final : public Shape {
public:
  Triangle(std::string N, std::vector<long> P) : Shape(std::move(N)), P(std::move(P)) {
    if (this->P.size() != 6)
      throw std::invalid_argument("triangle needs 6 coordinates");
    if (twiceArea() == 0)
      throw std::invalid_argument("degenerate triangle");
  }
  const char *kind() const override { return "triangle"; }
  long area() const override { return twiceArea() / 2; }
  long perimeter() const override {
    long S = 0;
    for (int I = 0; I < 3; ++I) {
      long DX = P[2 * I] - P[(2 * I + 2) % 6], DY = P[2 * I + 1] - P[(2 * I + 3) % 6];
      S += isqrt(DX * DX + DY * DY);
    }
    return S;
  }
  Box bounds() const override {
    Box B{P[0], P[1], P[0], P[1]};
    for (int I = 1; I < 3; ++I) {
      B.X0 = std::min(B.X0, P[2 * I]);
      B.X1 = std::max(B.X1, P[2 * I]);
      B.Y0 = std::min(B.Y0, P[2 * I + 1]);
      B.Y1 = std::max(B.Y1, P[2 * I + 1]);
    }
    return B;
  }
  void translate(long DX, long DY) override {
    for (int I = 0; I < 3; ++I) { P[2 * I] += DX; P[2 * I + 1] += DY; }
  }

private:
  static long isqrt(long V) {
    long R = 0;
    while ((R + 1) * (R + 1) <= V) ++R;
    return R;
  }
  long twiceArea() const {
    long A = (P[2] - P[0]) * (P[5] - P[1]) - (P[4] - P[0]) * (P[3] - P[1]);
    return A < 0 ? -A : A;
  }
  std::vector<long> P;
};

// A registry of factories keyed by name: one template per arity of numeric arguments.
using Factory = std::unique_ptr<Shape> (*)(const std::string &, const std::vector<long> &);

template <typename T, size_t Arity> std::unique_ptr<Shape> make(const std::string &Name,
                                                                const std::vector<long> &A) {
  if (A.size() != Arity)
    throw std::invalid_argument("expected " + std::to_string(Arity) + " numbers, got " +
                                std::to_string(A.size()));
  if constexpr (Arity == 3)
    return std::make_unique<T>(Name, A[0], A[1], A[2]);
  else
    return std::make_unique<T>(Name, A[0], A[1], A[2], A[3]);
}

std::unique_ptr<Shape> makeTriangle(const std::string &Name, const std::vector<long> &A) {
  return std::make_unique<Triangle>(Name, A);
}

const std::map<std::string, Factory> &registry() {
  static const std::map<std::string, Factory> R = {
      {"rect", &make<Rect, 4>},
      {"square", &make<Square, 3>},
      {"circle", &make<Circle, 3>},
      {"triangle", &makeTriangle},
  };
  return R;
}

template <typename Key, typename Value>
std::vector<std::pair<Key, Value>> sortedByValue(const std::map<Key, Value> &M) {
  std::vector<std::pair<Key, Value>> V(M.begin(), M.end());
  // Keys are unique, so ordering ties by key makes the order total (no stable sort needed).
  std::sort(V.begin(), V.end(), [](const auto &A, const auto &B) {
    return A.second != B.second ? A.second > B.second : A.first < B.first;
  });
  return V;
}

// Lines: "KIND NAME N N N..." or "move NAME DX DY".
std::vector<std::unique_ptr<Shape>> parse(const std::string &Text) {
  std::vector<std::unique_ptr<Shape>> Shapes;
  std::istringstream In(Text);
  std::string Line;
  int LineNo = 0;
  while (std::getline(In, Line)) {
    ++LineNo;
    std::istringstream LS(Line);
    std::string Kind, Name;
    if (!(LS >> Kind) || Kind[0] == '#')
      continue;
    if (!(LS >> Name))
      throw ParseError(LineNo, "missing name");
    std::vector<long> Nums;
    long V;
    while (LS >> V)
      Nums.push_back(V);
    if (!LS.eof())
      throw ParseError(LineNo, "bad number");
    if (Kind == "move") {
      auto It = std::find_if(Shapes.begin(), Shapes.end(),
                             [&](const auto &S) { return S->name() == Name; });
      if (It == Shapes.end())
        throw ParseError(LineNo, "no shape named '" + Name + "'");
      if (Nums.size() != 2)
        throw ParseError(LineNo, "move needs dx dy");
      (*It)->translate(Nums[0], Nums[1]);
      continue;
    }
    auto F = registry().find(Kind);
    if (F == registry().end())
      throw ParseError(LineNo, "unknown shape '" + Kind + "'");
    try {
      Shapes.push_back(F->second(Name, Nums));
    } catch (const std::invalid_argument &E) {
      throw ParseError(LineNo, Name + ": " + E.what());
    }
  }
  return Shapes;
}

std::string summarize(const std::vector<std::unique_ptr<Shape>> &Shapes) {
  std::map<std::string, long> AreaByKind;
  Box All{0, 0, 0, 0};
  bool First = true;
  long Perim = 0;
  for (const auto &S : Shapes) {
    AreaByKind[S->kind()] += S->area();
    Perim += S->perimeter();
    Box B = S->bounds();
    if (First) {
      All = B;
      First = false;
    } else {
      All = {std::min(All.X0, B.X0), std::min(All.Y0, B.Y0), std::max(All.X1, B.X1),
             std::max(All.Y1, B.Y1)};
    }
  }
  std::ostringstream OS;
  OS << Shapes.size() << " shapes, perimeter " << Perim << ", bounds [" << All.X0 << ","
     << All.Y0 << " " << All.X1 << "," << All.Y1 << "] area " << All.area() << "\n";
  for (const auto &[Kind, Area] : sortedByValue(AreaByKind))
    OS << "  " << Kind << ": " << Area << "\n";
  return OS.str();
}

} // namespace scene

int main() {
  const char *Scenes[] = {
      ("rect r1 0 0 10 20\nsquare s1 5 5 7\ncircle c1 -3 4 5\ntriangle t1 0 0 30 0 0 40\n"
       "move c1 100 100\n"),
      "# a comment\nsquare a 0 0 1\nsquare b 1 1 2\nsquare c 3 3 3\nrect d 0 0 100 1\n",
      "rect r1 0 0 10\n",
      "circle c 0 0 -1\n",
      "hexagon h 1 2 3\n",
      "square s 0 0 4\nmove t 1 1\n",
      "triangle t 0 0 1 1 2 2\n",
      "rect r 0 0 x 3\n",
  };
  int Failed = 0;
  for (size_t I = 0; I < sizeof(Scenes) / sizeof(Scenes[0]); ++I) {
    std::printf("scene %zu: ", I);
    try {
      std::printf("%s", scene::summarize(scene::parse(Scenes[I])).c_str());
    } catch (const scene::ParseError &E) {
      ++Failed;
      std::printf("error (line %d) %s\n", E.line(), E.what());
    }
  }
  std::printf("%d scenes failed\n", Failed);
  return 0;
}
