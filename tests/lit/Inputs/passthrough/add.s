# add.s: a hand-written x86-64 function, assembled by the integrated assembler (cc1as).
        .text
        .globl  add_numbers
        .type   add_numbers,@function
add_numbers:
        leal    (%rdi,%rsi), %eax
        retq
        .size   add_numbers, .-add_numbers
        .section .note.GNU-stack,"",@progbits
