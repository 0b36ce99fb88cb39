// difftest C++ program shlib-passthrough (docs/difftest.md): the library's interface.
#pragma once

// Exception types with their key functions (and so their type_info) in the library: main
// catches what the library throws and the library catches what main throws by these types.
struct BaseError {
  int code;
  explicit BaseError(int c) : code(c) {}
  virtual ~BaseError();
  virtual int kind() const;
};
struct DerivedError : BaseError {
  explicit DerivedError(int c) : BaseError(c) {}
  ~DerivedError() override;
  int kind() const override;
};

extern int lib_cleanups;        // destructors run by the library's frames
extern int lib_rethrows;        // handlers in the library that rethrew
extern int lib_local_catches;   // exceptions the library handled itself

int lib_throw_int(int v);               // throws v * 10 when v > 2
int lib_filter(int v);                  // try block for another type: ints pass
int lib_plain(int v);                   // no try block, no cleanup: a plain call
int lib_cleanup(int v);                 // a destructor only (cleanup landing pad)
int lib_rethrow(int v);                 // catch (int), count, throw;
int lib_translate(int v);               // catch (int) -> throw DerivedError
int lib_swallow(int v);                 // catch (...) -> -100
int lib_catch_base(int (*cb)(int), int v);   // calls main's cb, catches BaseError&
int lib_call_through(int (*cb)(int), int v); // calls main's cb with a cleanup only
int lib_at(int i);                      // std::vector::at: std::out_of_range from libstdc++
int lib_loop(int n);                    // throws and catches n times in a loop
