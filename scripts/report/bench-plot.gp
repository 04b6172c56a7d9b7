# gnuplot -e "data='DAT'; out='PNG'; label='TITLE'; ymin=1" scripts/report/bench-plot.gp
# The per-page fault latency of make bench (written by bench-report.py):
# one group of bars per size, method and mapping, stock, off and
# pre-zeroed, medians with min..max error bars, on a log scale.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 1400,700 font ",10"
} else {
	set terminal png size 1400,700
}
set output out
set title label
set datafile missing "-"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set boxwidth 0.9
set logscale y
set yrange [ymin:*]
set format y "10^{%T}"
set ylabel "time per page (us, log scale)"
set xtics rotate by -30 nomirror
set grid ytics
set key top left
plot data using 2:3:4:xtic(1) title "stock" lc rgb "#c0392b", \
	'' using 5:6:7 title "patched, zeroed\\_reserve=0" lc rgb "#7f8c8d", \
	'' using 8:9:10 title "patched, pre-zeroed" lc rgb "#2980b9"
