Optimal - objective value 0.00000000
      0 p_f1_t1_r0               1                       0
     17 p_f2_t3_r0               1                       0
     29 p_f3_t2_r2               1                       0
     41 p_f4_t2_r1               1                       0
     55 p_f5_t2_r2               1                       0
     77 p_f6_t5_r2               1                       0
     87 p_f7_t4_r2               1                       0
     91 p_f8_t1_r0               1                       0
