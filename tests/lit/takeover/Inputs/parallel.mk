# Compiles every src/*.c at -Oz with $(CC); used with make -j2 by stats-parallel.test.
OBJS = $(patsubst %.c,%.o,$(wildcard src/*.c))
all: $(OBJS)
%.o: %.c
	$(CC) -Oz -c $< -o $@
