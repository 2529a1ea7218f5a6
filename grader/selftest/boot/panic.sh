#!/bin/sh
# A guest whose init dies: the kernel panics ("Attempted to kill init").
echo "init: exiting on purpose"
exit 1
