/* Threads started before their work is known. A thread a process starts, or wakes, can wait
 * milliseconds for a CPU: a kernel that packs threads onto few CPUs (that of the VMs this project is
 * measured on, whose idle virtual CPUs cost the host to wake) queues it behind the thread that made
 * or woke it, beside an idle core, until a tick or a balancing pass moves one of them (perf sched on
 * the project's 2-core machine: 0 to 8 ms, against a pre-commit run of ~25 ms). So a spare is
 * started first thing, and started and handed its work on the allowed CPUs other than its maker's
 * (then allowed them all again): it waits while its process loads its rules and walks its paths,
 * the work is handed to it when it is known (hg_spare_take), and the spares never handed any are
 * let go (hg_spare_release).
 *
 * One set of spares per process, for one thread (the one that starts, takes and releases them). */
#ifndef HG_SPARE_H
#define HG_SPARE_H

#include <pthread.h>
#include <stdbool.h>

/** Starts n spare threads (fewer when the system refuses some). Does nothing while spares started
 *  earlier are not released. */
void hg_spare_start(unsigned n);

/** Hands fn(arg) to a waiting spare: true, and *thread is the thread that runs it (joined by the
 *  caller, as one pthread_create started); false when no spare is waiting. */
bool hg_spare_take(pthread_t *thread, void *(*fn)(void *), void *arg);

/** How many spares wait for work. */
unsigned hg_spare_waiting(void);

/** Lets the waiting spares go and joins them. */
void hg_spare_release(void);

#endif
