struct Failure {
  int code;
};
int step1(int);
int step2(int);
int step3(int);
int step4(int);
int step5(int);
int step6(int);
int twice(int) noexcept;
int thrice(int) noexcept;
int clamp(int) noexcept;
int parity(int) noexcept;
