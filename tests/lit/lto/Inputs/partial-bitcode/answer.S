# Machine code only: no bitcode stands for it.
	.text
	.globl	asm_answer
	.type	asm_answer, @function
asm_answer:
	movl	$42, %eax
	ret
	.size	asm_answer, .-asm_answer
	.section	.note.GNU-stack,"",@progbits
