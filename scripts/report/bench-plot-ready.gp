# gnuplot -e "data='DAT'; out='PNG'; label='TITLE'" scripts/report/bench-plot-ready.gp
# QEMU's time to ready against its guest RAM size (written by
# bench-report.py): stock, off and pre-zeroed, medians with min..max
# error bars.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 1000,650 font ",10"
} else {
	set terminal png size 1000,650
}
set output out
set title label
set datafile missing "-"
set xlabel "guest RAM (GiB)"
set ylabel "time until QEMU is ready (s)"
set xrange [0:*]
set yrange [0:*]
set offsets 0, graph 0.05, graph 0.05, 0
set grid
set key top left
plot data using 1:2:3:4 with yerrorlines title "stock" lc rgb "#c0392b" pt 7, \
	'' using 1:5:6:7 with yerrorlines title "patched, zeroed\\_reserve=0" lc rgb "#7f8c8d" pt 5, \
	'' using 1:8:9:10 with yerrorlines title "patched, pre-zeroed" lc rgb "#2980b9" pt 9
